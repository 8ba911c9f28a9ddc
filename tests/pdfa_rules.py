"""The PDF/A-3B rules a Factur-X statement could break, checked here because no validator that installs from the
allowed registries checks them (veraPDF is Java and in none of them): each problem names its veraPDF rule ID
(veraPDF/veraPDF-validation-profiles PDF_A/PDFA-3B.xml, commit 6f2a87f1, "clause-testNumber") and so the ISO
19005-3 clause. Info/XMP agreement is veraPDF's PDF/A-1 rule 6.7.3 (PDF_A/PDFA-1B.xml), which PDF/A-3 receivers
still apply. qpdf --check (syntax, cross-reference table, stream encoding) runs beside these."""
from __future__ import annotations

import re
from datetime import datetime
from io import BytesIO

import pikepdf
from lxml import etree
from pikepdf.models.metadata import DOCINFO_MAPPING

from gpudash.ops.report import pdfa

BLEND_MODES = {"Normal", "Compatible", "Multiply", "Screen", "Overlay", "Darken", "Lighten", "ColorDodge",
               "ColorBurn", "HardLight", "SoftLight", "Difference", "Exclusion", "Hue", "Saturation", "Color",
               "Luminosity"}  # 6.2.10-1: ISO 32000-1 Table 136
ACTIONS = {"GoTo", "GoToR", "GoToE", "Thread", "URI", "Named", "SubmitForm"}  # 6.5.1-1: the permitted ones
FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")
XMP_KNOWN = {"http://purl.org/dc/elements/1.1/", "http://ns.adobe.com/xap/1.0/", "http://ns.adobe.com/pdf/1.3/",
             "http://www.aiim.org/pdfa/ns/id/", "http://www.aiim.org/pdfa/ns/extension/",
             "http://www.aiim.org/pdfa/ns/schema#", "http://www.aiim.org/pdfa/ns/property#"}
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"


def problems(data: bytes) -> list[str]:
    """Every broken rule of ``data``, as ``rule-id: what``."""
    out = _file(data)
    with pikepdf.open(BytesIO(data)) as doc:
        out += _output_intent(doc) + _fonts_and_graphics(doc) + _actions(doc) + _attachment(doc)
        out += _xmp(doc)
    return out


def _file(data: bytes) -> list[str]:
    out = []
    if not re.match(rb"%PDF-1\.[0-7]\r?\n", data):
        out.append("6.1.2-1: the header is not %PDF-1.n at byte 0")
    tail = data[data.rfind(b"%%EOF") + 5:]
    if tail not in (b"", b"\n", b"\r\n", b"\r"):
        out.append("6.1.3-3: data after the last %%EOF")
    with pikepdf.open(BytesIO(data)) as doc:
        ids = doc.trailer.get("/ID")
        if ids is None or len(ids) != 2 or not all(len(bytes(x)) for x in ids):
            out.append("6.1.3-1: no file identifier /ID in the trailer")
        if "/Encrypt" in doc.trailer:
            out.append("6.1.3-2: the file is encrypted")
    return out


def _output_intent(doc) -> list[str]:
    intents = [x for x in doc.Root.get("/OutputIntents", []) if x.get("/S") == "/GTS_PDFA1"]
    if len(intents) != 1 or "/DestOutputProfile" not in intents[0]:
        return ["6.2.4.3-2: DeviceRGB is used without a PDF/A OutputIntent with an RGB profile"]
    icc = intents[0].DestOutputProfile.read_bytes()
    if icc[12:16] not in (b"mntr", b"prtr") or icc[16:20] != b"RGB " or icc[8] >= 5:
        return [f"6.2.3-1: the OutputIntent's profile is {icc[12:16]!r} {icc[16:20]!r} version {icc[8]}"]
    return [] if intents[0].DestOutputProfile.get("/N") == 3 else ["6.2.3-1: the profile's /N is not 3"]


def _resources(doc):
    """Every resource dictionary: the pages' and their form XObjects', and the Type 3 fonts'."""
    seen, todo = set(), [p.obj.get("/Resources") for p in doc.pages]
    while todo:
        res = todo.pop()
        if res is None or res.objgen in seen and res.objgen != (0, 0):
            continue
        seen.add(res.objgen)
        yield res
        for x in list(res.get("/XObject", {}).values()) + list(res.get("/Font", {}).values()):
            if "/Resources" in x:
                todo.append(x.Resources)


def _fonts_and_graphics(doc) -> list[str]:
    out = []
    for res in _resources(doc):
        for name, font in res.get("/Font", {}).items():
            for f in font.get("/DescendantFonts", [font]):
                if f.Subtype == "/Type3":
                    continue
                if not any(k in f.get("/FontDescriptor", {}) for k in FONT_FILES):
                    out.append(f"6.2.11.4.1-1: font {name} ({f.get('/BaseFont')}) is not embedded")
                if f.Subtype == "/CIDFontType2" and "/CIDToGIDMap" not in f:
                    out.append(f"6.2.11.3.2-1: CIDFontType2 {name} without /CIDToGIDMap")
        for gs in res.get("/ExtGState", {}).values():
            bm = gs.get("/BM")
            for mode in (bm if isinstance(bm, pikepdf.Array) else [bm] if bm is not None else []):
                if str(mode)[1:] not in BLEND_MODES:
                    out.append(f"6.2.10-1: blend mode {mode}")
            out += [f"6.2.5: ExtGState key {k}" for k in ("/TR", "/HTP") if k in gs]
    return out


def _actions(doc) -> list[str]:
    """6.5.1-1: only the permitted action types (no JavaScript), in objects and in /A, /OpenAction, /AA."""
    out = ["6.5.1-1: the document's /JavaScript name tree"] if "/JavaScript" in doc.Root.get("/Names", {}) else []
    for obj in doc.objects:
        if not isinstance(obj, pikepdf.Dictionary):
            continue
        found = [obj] if obj.get("/Type") == "/Action" else []
        found += [obj[k] for k in ("/A", "/OpenAction") if isinstance(obj.get(k), pikepdf.Dictionary)]
        found += list(obj.AA.values()) if isinstance(obj.get("/AA"), pikepdf.Dictionary) else []
        out += [f"6.5.1-1: action {a.get('/S')}" for a in found if str(a.get("/S"))[1:] not in ACTIONS]
    return out


def _attachment(doc) -> list[str]:
    if pdfa.FILENAME not in doc.attachments:
        return [f"6.8: no embedded {pdfa.FILENAME}"]
    spec = doc.attachments[pdfa.FILENAME].obj
    stream = spec.EF.F
    out = []
    if str(stream.get("/Subtype", ""))[1:] != pdfa.MIME:
        out.append(f"6.8-1: the MIME type is {stream.get('/Subtype')}, not {pdfa.MIME}")
    if "/F" not in spec or "/UF" not in spec:
        out.append("6.8-2: the file specification lacks /F or /UF")
    if spec.get("/AFRelationship") != pdfa.RELATIONSHIP:
        out.append(f"6.8-3: /AFRelationship is {spec.get('/AFRelationship')}")
    if not any(x.objgen == spec.objgen for x in doc.Root.get("/AF", [])):
        out.append("6.8-4: the file is not an associated file of the document (catalog /AF)")
    if "/ModDate" not in stream.get("/Params", {}):
        out.append("6.8 (Factur-X): the embedded file's /Params has no /ModDate")
    return out


def _xmp(doc) -> list[str]:
    meta = doc.Root.get("/Metadata")
    if meta is None or meta.get("/Type") != "/Metadata" or meta.get("/Subtype") != "/XML":
        return ["6.6.2.1-1: the catalog has no /Metadata stream of /Type /Metadata /Subtype /XML"]
    raw = meta.read_bytes()
    out = []
    header = re.search(rb"<\?xpacket begin=[^>]*\?>", raw)
    if header and (b"bytes=" in header.group() or b"encoding=" in header.group()):
        out.append("6.6.2.1-2/3: the XMP packet header carries bytes= or encoding=")
    try:
        raw.decode("utf-8")
        root = etree.fromstring(raw)
    except (UnicodeDecodeError, etree.XMLSyntaxError) as err:
        return [*out, f"6.6.2.1-4/5: the XMP is not well-formed UTF-8 ({err})"]
    out += _pdfa_identification(root) + _extension_schema(root)
    return out + _info_in_sync(doc)


def _text(root, path: str) -> str | None:
    found = root.xpath(path, namespaces={"pdfaid": "http://www.aiim.org/pdfa/ns/id/", "rdf": RDF})
    return found[0].text if found else None


def _pdfa_identification(root) -> list[str]:
    part = _text(root, "//pdfaid:part") or _text(root, "//rdf:Description/@pdfaid:part")
    conformance = _text(root, "//pdfaid:conformance")
    out = [] if part == "3" else [f"6.6.4-2: pdfaid:part is {part}, not 3"]
    return out + ([] if conformance == "B" else [f"6.6.4-3: pdfaid:conformance is {conformance}"])


def _extension_schema(root) -> list[str]:
    """6.6.2.3.1-1: every property is of a predefined schema or one the packet describes (6.6.2.3.3)."""
    ns = {"rdf": RDF, "s": "http://www.aiim.org/pdfa/ns/schema#", "p": "http://www.aiim.org/pdfa/ns/property#"}
    declared = {}
    for schema in root.xpath("//s:namespaceURI/..", namespaces=ns):
        uri = schema.xpath("string(s:namespaceURI)", namespaces=ns)
        declared[uri] = set(schema.xpath(".//p:name/text()", namespaces=ns))
    out = []
    for desc in root.iter(str(etree.QName(RDF, "Description"))):
        for prop in desc:
            uri, name = etree.QName(prop).namespace, etree.QName(prop).localname
            if uri not in XMP_KNOWN and name not in declared.get(uri, set()):
                out.append(f"6.6.2.3.1-1: XMP property {{{uri}}}{name} of no described schema")
    return out


def _info_in_sync(doc) -> list[str]:
    """PDF/A-1 6.7.3 (veraPDF PDF_A/PDFA-1B.xml): each Info entry equals its XMP counterpart."""
    out = []
    meta = doc.open_metadata()
    for uri, element, key, converter in DOCINFO_MAPPING:
        info = doc.docinfo.get(key)
        qname = f"{{{uri}}}{element}"
        xmp = meta.get(qname)
        if info is None and xmp is None:
            continue
        if info is None or xmp is None:
            out.append(f"6.7.3: {key} is only in {'XMP' if info is None else 'the Info dictionary'}")
            continue
        if converter:
            same = _date(converter.xmp_from_docinfo(str(info))) == _date(xmp) if "Date" in key else \
                converter.xmp_from_docinfo(str(info)) == xmp
        else:
            same = str(info) == str(xmp)
        if not same:
            out.append(f"6.7.3: Info {key} {str(info)!r} differs from XMP {element} {xmp!r}")
    return out


def _date(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
