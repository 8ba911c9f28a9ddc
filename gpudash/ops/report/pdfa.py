"""The Factur-X PDF as PDF/A-3B (ISO 19005-3): Chromium's statement, edited in place with pikepdf (so its fonts,
which Chromium embeds as subsets, and its structure tags stay as printed), plus:

- an OutputIntent ``GTS_PDFA1`` with the sRGB profile in ``icc/`` (veraPDF rules 6.2.3-1, 6.2.4.3-2);
- the CII XML as embedded file ``factur-x.xml``: MIME type ``text/xml`` as the file's ``/Subtype``, ``/Params``
  with dates and size, ``/F`` and ``/UF``, ``/AFRelationship /Alternative`` (one of the three relations Factur-X
  allows for its XML, akretion/factur-x facturx/facturx.py ``XML_AFRelationship``; the one pretix/python-drafthorse
  drafthorse/pdf.py writes for the EN 16931 profile) and the catalog's ``/AF`` array naming it (rules 6.8-1 to
  6.8-4);
- XMP metadata from drafthorse's Factur-X template (drafthorse/xmp_schema.py: ``pdfaid:part`` 3, conformance B,
  and the Factur-X PDF/A extension schema, rules 6.6.4-*, 6.6.2.3.3-*) with ``pdf:Keywords`` added, and the Info
  dictionary written from the same XMP by pikepdf, so the two never differ;
- a trailer ``/ID``, which qpdf writes on every save (rule 6.1.3-1), no encryption (6.1.3-2).

veraPDF's rule IDs are those of veraPDF/veraPDF-validation-profiles PDF_A/PDFA-3B.xml.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from io import BytesIO
from pathlib import Path
from xml.sax.saxutils import escape

FILENAME = "factur-x.xml"  # the attachment's name the Factur-X specification fixes
MIME = "text/xml"
RELATIONSHIP = "/Alternative"
SRGB = Path(__file__).parent / "icc" / "sRGB.icc"
SRGB_NAME = "sRGB IEC61966-2.1"
FACTURX_URN = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"


@dataclass(frozen=True)
class Description:
    """What the PDF says of itself, in XMP and in the Info dictionary alike."""

    title: str  # the invoice number
    author: str  # the seller
    subject: str
    keywords: str
    creator: str  # the tool that made the content
    producer: str  # the tool that wrote the PDF
    when: datetime  # creation and modification, UTC


def facturx(pdf: bytes, xml: bytes, about: Description, level: str = "EN 16931") -> bytes:
    """``pdf`` as PDF/A-3B with ``xml`` embedded as its Factur-X invoice of profile ``level``."""
    import pikepdf

    with pikepdf.open(BytesIO(pdf)) as doc:
        _output_intent(doc)
        _attach(doc, xml, about.when)
        _metadata(doc, about, level)
        out = BytesIO()
        doc.save(out, min_version="1.7", encryption=False)
    return out.getvalue()


def _output_intent(doc) -> None:
    import pikepdf

    profile = pikepdf.Stream(doc, SRGB.read_bytes())
    profile.N = 3
    intent = pikepdf.Dictionary(Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFA1,
                                OutputConditionIdentifier=SRGB_NAME, Info=SRGB_NAME, DestOutputProfile=profile)
    doc.Root.OutputIntents = pikepdf.Array([doc.make_indirect(intent)])


def _attach(doc, xml: bytes, when: datetime) -> None:
    import pikepdf

    date = f"D:{when:%Y%m%d%H%M%S}Z"
    spec = pikepdf.AttachedFileSpec(doc, xml, description="Factur-X invoice (EN 16931, UN/CEFACT CII)",
                                    filename=FILENAME, mime_type=MIME, creation_date=date, mod_date=date,
                                    relationship=pikepdf.Name(RELATIONSHIP))
    doc.attachments[FILENAME] = spec
    doc.Root.AF = pikepdf.Array([doc.attachments[FILENAME].obj])
    doc.Root.PageMode = pikepdf.Name.UseAttachments


def _metadata(doc, about: Description, level: str) -> None:
    import pikepdf
    from drafthorse.xmp_schema import XMP_SCHEMA

    xmp = XMP_SCHEMA.format(
        title=escape(about.title), author=escape(about.author), subject=escape(about.subject),
        producer=escape(about.producer), creator_tool=escape(about.creator),
        timestamp=f"{about.when:%Y-%m-%dT%H:%M:%S}+00:00", urn=FACTURX_URN, documenttype="INVOICE",
        xml_filename=FILENAME, version="1.0", xmp_level=level).strip()
    doc.Root.Metadata = pikepdf.Stream(doc, xmp.encode())
    for key in list(doc.docinfo.keys()):  # Chromium's, rewritten from the XMP below
        del doc.docinfo[key]
    with doc.open_metadata(set_pikepdf_as_editor=False, update_docinfo=True) as meta:
        meta["pdf:Keywords"] = about.keywords
