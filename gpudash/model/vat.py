"""VAT categories as EN 16931 writes them (UNTDID 5305 codes, BT-118/BT-151), with the exemption reasons (BT-120
text, BT-121 code from the CEF VATEX code list): one home for the model, the CII and any later UBL writer.

Rules per category, from the EN 16931 schematron (ConnectingEurope/eInvoicing-EN16931
cii/schematron/abstract/EN16931-CII-model.sch, BR-S-*, BR-Z-*, BR-E-*, BR-AE-*, BR-IC-*, BR-G-*, BR-O-*):
S rate above 0, no reason; Z rate 0, no reason; E rate 0 with a reason (code or text, BR-E-10); AE, K, G rate 0
with the reason "Reverse charge" / "Intra-community supply" / "Export outside the EU" (BR-AE-10, BR-IC-10,
BR-G-10); O no rate at all (BR-O-05) and no VAT identifier of either party (BR-O-02). AE needs the buyer's VAT ID
(BR-AE-02), K too (BR-IC-02) and the deliver-to country (BR-IC-12).
"""
from __future__ import annotations

from dataclasses import dataclass

STANDARD, ZERO, EXEMPT, REVERSE_CHARGE, INTRA_COMMUNITY, EXPORT, OUT_OF_SCOPE = "S", "Z", "E", "AE", "K", "G", "O"


@dataclass(frozen=True)
class Category:
    code: str
    name: str  # the category's name in EN 16931
    reason: str  # the standard exemption reason text (BT-120) the rules name, or "" where none is fixed
    vatex: str  # the VATEX code (BT-121) that means this category, or ""
    buyer_vat_id: bool  # the buyer's VAT identifier is required
    reason_required: bool  # an exemption reason (code or text) is required; False: none is allowed (S, Z)


CATEGORIES = {c.code: c for c in (
    Category(STANDARD, "Standard rate", "", "", False, False),
    Category(ZERO, "Zero rated goods", "", "", False, False),
    Category(EXEMPT, "Exempt from VAT", "", "", False, True),
    Category(REVERSE_CHARGE, "VAT Reverse Charge", "Reverse charge", "VATEX-EU-AE", True, True),
    Category(INTRA_COMMUNITY, "VAT exempt for EEA intra-community supply of goods and services",
             "Intra-community supply", "VATEX-EU-IC", True, True),
    Category(EXPORT, "Free export item, tax not charged", "Export outside the EU", "VATEX-EU-G", False, True),
    Category(OUT_OF_SCOPE, "Services outside scope of tax", "Not subject to VAT", "VATEX-EU-O", False, True),
)}
RATED = (STANDARD, ZERO)  # the categories with a rate in the model; the others charge none
# The CEF VATEX code list as the EN 16931 schematron accepts it (BR-CL-22 in
# ConnectingEurope/eInvoicing-EN16931 cii/schematron/codelist/EN16931-CII-codes.sch, validation 1.3.16).
VATEX = tuple("""VATEX-EU-79-C VATEX-EU-132 VATEX-EU-132-1A VATEX-EU-132-1B VATEX-EU-132-1C VATEX-EU-132-1D
VATEX-EU-132-1E VATEX-EU-132-1F VATEX-EU-132-1G VATEX-EU-132-1H VATEX-EU-132-1I VATEX-EU-132-1J VATEX-EU-132-1K
VATEX-EU-132-1L VATEX-EU-132-1M VATEX-EU-132-1N VATEX-EU-132-1O VATEX-EU-132-1P VATEX-EU-132-1Q VATEX-EU-135-1
VATEX-EU-143 VATEX-EU-143-1A VATEX-EU-143-1B VATEX-EU-143-1C VATEX-EU-143-1D VATEX-EU-143-1E VATEX-EU-143-1F
VATEX-EU-143-1FA VATEX-EU-143-1G VATEX-EU-143-1H VATEX-EU-143-1I VATEX-EU-143-1J VATEX-EU-143-1K VATEX-EU-143-1L
VATEX-EU-144 VATEX-EU-146-1E VATEX-EU-159 VATEX-EU-309 VATEX-EU-148 VATEX-EU-148-A VATEX-EU-148-B VATEX-EU-148-C
VATEX-EU-148-D VATEX-EU-148-E VATEX-EU-148-F VATEX-EU-148-G VATEX-EU-151 VATEX-EU-151-1A VATEX-EU-151-1AA
VATEX-EU-151-1B VATEX-EU-151-1C VATEX-EU-151-1D VATEX-EU-151-1E VATEX-EU-G VATEX-EU-O VATEX-EU-IC VATEX-EU-AE
VATEX-EU-D VATEX-EU-F VATEX-EU-I VATEX-EU-J VATEX-FR-FRANCHISE VATEX-FR-CNWVAT VATEX-EU-153""".split())


def code_problem(category: str, vatex: str) -> str:
    """Why VATEX code ``vatex`` cannot stand with ``category`` ("" when it can): a category that means one
    code takes only that one, E takes any other, S and Z none."""
    c = CATEGORIES[category]
    own = {x.vatex for x in CATEGORIES.values() if x.vatex}
    if not c.reason_required:
        return f"category {category} ({c.name}) takes no exemption reason (EN 16931 BR-{category}-10)"
    if c.vatex and vatex != c.vatex:
        return f"category {category} ({c.name}) is VATEX code {c.vatex}, not {vatex}"
    if not c.vatex and vatex in own:
        return f"{vatex} means another category than {category} ({c.name})"
    return ""
