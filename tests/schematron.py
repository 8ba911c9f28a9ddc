"""Run the official e-invoice schematrons with saxonche (Saxonica's SaxonC-HE, an XSLT 3.0 processor).

A schematron is either published compiled (the CEN EN 16931 rules: ConnectingEurope/eInvoicing-EN16931
``ubl/xslt/EN16931-UBL-validation.xslt``, SVRL out) or as ISO Schematron source (Peppol's
``rules/sch/PEPPOL-EN16931-UBL.sch``), which :func:`compile_sch` turns into XSLT 2.0 with the ISO Schematron
semantics that file uses (ISO/IEC 19757-3): ``ns``, schema, pattern (global) and rule ``let``, foreign
``xsl:function``, and per pattern the first rule whose context matches a node fires; each failed ``assert`` is an
SVRL failed-assert with its id and flag. No abstract patterns, includes, phases or reports: the compiler refuses
what it does not know.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

from lxml import etree

SCH = "http://purl.oclc.org/dsdl/schematron"
XSL = "http://www.w3.org/1999/XSL/Transform"
SVRL = "http://purl.oclc.org/dsdl/svrl"
_KNOWN = {"title", "ns", "let", "pattern", "rule", "assert"}


def _x(parent, element: str, **attrs: str):
    return etree.SubElement(parent, f"{{{XSL}}}{element}", attrs)


def compile_sch(sch: Path) -> bytes:
    """The ISO Schematron file ``sch`` as an XSLT 2.0 stylesheet writing SVRL failed-asserts."""
    schema = etree.parse(str(sch)).getroot()
    unknown = {etree.QName(e).localname for e in schema.iter(f"{{{SCH}}}*")} - _KNOWN - {"schema"}
    assert not unknown, f"{sch.name}: schematron elements this compiler does not handle: {unknown}"
    nsmap = {"xsl": XSL, "svrl": SVRL, **{e.get("prefix"): e.get("uri") for e in schema.iter(f"{{{SCH}}}ns")}}
    out = etree.Element(f"{{{XSL}}}stylesheet", version="2.0", nsmap=nsmap)
    for child in list(schema):
        if child.tag == f"{{{XSL}}}function":
            out.append(child)
    for let in schema.xpath("s:let | s:pattern/s:let", namespaces={"s": SCH}):  # global, as the ISO skeleton
        _x(out, "variable", name=let.get("name"), select=let.get("value"))
    root = _x(out, "template", match="/")
    report = etree.SubElement(root, f"{{{SVRL}}}schematron-output")
    for i, pattern in enumerate(schema.iter(f"{{{SCH}}}pattern")):
        _x(report, "apply-templates", select="/", mode=f"p{i}")
        _x(out, "template", match="@*|node()", mode=f"p{i}", priority="-100")
        _x(out[-1], "apply-templates", select="@*|node()", mode=f"p{i}")
        for j, rule in enumerate(pattern.iter(f"{{{SCH}}}rule")):
            template = _x(out, "template", match=rule.get("context"), mode=f"p{i}", priority=str(1000 - j))
            for item in rule:
                if item.tag == f"{{{SCH}}}let":
                    _x(template, "variable", name=item.get("name"), select=item.get("value"))
                elif item.tag == f"{{{SCH}}}assert":
                    test = _x(template, "if", test=f"not({item.get('test')})")
                    failed = etree.SubElement(test, f"{{{SVRL}}}failed-assert", id=item.get("id", ""),
                                              flag=item.get("flag", "error"))
                    _x(failed, "attribute", name="location", select="path()")
                    failed.append(etree.Element(f"{{{SVRL}}}text"))
                    failed[-1].text = " ".join("".join(item.itertext()).split())
            _x(template, "apply-templates", select="@*|node()", mode=f"p{i}")
    return etree.tostring(out)


@cache
def _processor():
    from saxonche import PySaxonProcessor

    return PySaxonProcessor(license=False)


@cache
def _executable(stylesheet: Path):
    xslt = _processor().new_xslt30_processor()
    if stylesheet.suffix == ".sch":
        return xslt.compile_stylesheet(stylesheet_text=compile_sch(stylesheet).decode())
    return xslt.compile_stylesheet(stylesheet_file=str(stylesheet))


def failed_asserts(stylesheet: Path, xml: bytes) -> list[tuple[str, str, str]]:
    """(flag, id, text) of every assert of ``stylesheet`` (.sch or compiled .xslt) that ``xml`` fails."""
    proc = _processor()
    node = proc.parse_xml(xml_text=xml.decode())
    svrl = etree.fromstring(_executable(stylesheet).transform_to_string(xdm_node=node).encode())
    return [(x.get("flag", "error"), x.get("id", ""), " ".join("".join(x.itertext()).split()))
            for x in svrl.iter(f"{{{SVRL}}}failed-assert")]
