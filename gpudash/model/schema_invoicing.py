"""The invoicing parts of gpudash.yaml's JSON Schema: the issuer printed at the head of every statement, whom a
tenant's invoices are addressed to, and the tax of either."""
from __future__ import annotations

from gpudash.model import vat
from gpudash.model.schema_types import TEXT_CHAR, Schema, closed_object

_TEXT = {"title": "one line of text without control characters", "type": "string",
         "maxLength": 200, "pattern": f"^{TEXT_CHAR}*$"}
_LINES = {"type": "array", "items": {**_TEXT, "minLength": 1}, "maxItems": 6}
# A number's parts: letters and digits joined by single dots, dashes or underscores, never starting "DRAFT" (a
# draft's number), so that a number is a safe file name of the ledger and no final number reads as a draft's.
_NUMBER_PART = {"type": "string", "maxLength": 20,
                "pattern": "^(?![Dd][Rr][Aa][Ff][Tt])[A-Za-z0-9]+([._-][A-Za-z0-9]+)*$"}
_COUNTRY = {"title": "an ISO 3166-1 alpha-2 country code (two uppercase letters)", "type": "string",
            "pattern": "^[A-Z]{2}$"}
# A Peppol participant identifier: the EAS scheme (4 digits, OpenPEPPOL/peppol-bis-invoice-3
# rules/sch/PEPPOL-EN16931-UBL.sch, `eaid`) and the identifier, e.g. 0088:5790000435975 or 9930:DE123456789.
_PEPPOL = {"title": "a Peppol participant identifier SCHEME:ID", "type": "string",
           "pattern": "^[0-9]{4}:[A-Za-z0-9][A-Za-z0-9.:_-]{0,99}$"}


def tax() -> Schema:
    label: dict[str, Schema] = {
        "label": {**_TEXT, "minLength": 1, "default": "VAT", "description": "The tax's name, e.g. VAT."}}
    rate: dict[str, Schema] = {
        **label,
        "rate": {"title": "a percentage in [0, 100]", "type": "number", "minimum": 0, "maximum": 100,
                 "description": "Rate in percent, e.g. 19."},
        "category": {"enum": list(vat.RATED),
                     "description": "EN 16931 VAT category: S standard (rate above 0), Z zero rated (rate 0); "
                                    "default: S above 0, else Z."}}
    exempt: dict[str, Schema] = {
        **label,
        "category": {"enum": [c for c in vat.CATEGORIES if c not in vat.RATED],
                     "description": "EN 16931 VAT category charging no tax: E exempt, AE reverse charge, K "
                                    "intra-community supply, G export outside the EU, O not subject to VAT; "
                                    "default E. AE and K need the buyer's billing.tax_id."},
        "exempt": {**_TEXT, "minLength": 1,
                   "description": "Why no tax is charged, printed on the invoice (BT-120); default: the category's "
                                  "standard text (e.g. Reverse charge); required for E without exemption_code."},
        "exemption_code": {"enum": list(vat.VATEX),
                           "description": "The reason's code in the CEF VATEX list (BT-121), e.g. VATEX-EU-AE; "
                                          "default: the category's own code."}}
    return {"oneOf": [
        closed_object(rate, "A tax rate added to the subtotal.", required=("rate",)),
        closed_object(exempt, "No tax, with the VAT category and the reason printed.",
                      anyOf=[{"required": ["category"]}, {"required": ["exempt"]}]),
    ]}


def issuer() -> Schema:
    return closed_object({
        "name": {**_TEXT, "minLength": 1, "description": "Legal name of the provider issuing the statements."},
        "address": {**_LINES, "description": "Postal address, one line per item."},
        "country": {**_COUNTRY, "description": "Country of the address (required for e-invoices)."},
        "tax_id": {**_TEXT, "description": "VAT or tax registration number, printed when set; required for "
                                           "e-invoices (EN 16931 BR-CO-26)."},
        "email": {**_TEXT, "description": "Billing contact address, printed when set."},
        "peppol_id": {**_PEPPOL, "description": "Peppol electronic address (report billing --format ubl)."},
        "payment_terms_days": {"title": "a number of days in [0, 365]", "type": "integer", "minimum": 0,
                               "maximum": 365, "default": 30,
                               "description": "Days from the issue date to the due date."},
        "payment": {**_LINES, "description": "Payment details as printed, one line each (bank, account, the "
                                             "reference to quote)."},
        "iban": {"title": "an IBAN (letters and digits, no spaces)", "type": "string",
                 "pattern": "^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$",
                 "description": "Account for SEPA credit transfers, written into e-invoices when set."},
        "bic": {"title": "a BIC", "type": "string", "pattern": "^[A-Z0-9]{8}([A-Z0-9]{3})?$",
                "description": "The account's BIC."},
        "tax": {**tax(), "description": "Tax of every tenant's invoice unless its billing section names another; "
                                        "default: a tax of 0 %.", "default": {"label": "Tax", "rate": 0}},
        "invoice_prefix": {**_NUMBER_PART, "title": "letters and digits, not starting DRAFT", "default": "GPU",
                           "description": "Prefix of every final invoice number: <prefix>[-<series>]-<sequence>."},
        "invoice_series": {**_NUMBER_PART, "title": "letters and digits, not starting DRAFT",
                           "description": "The numbering series (e.g. a year, 2026): each prefix and series counts "
                                          "1, 2, 3... without gaps in the ledger; default: one series."},
        "hours_digits": {"title": "decimals in [0, 6]", "type": "integer", "minimum": 0, "maximum": 6, "default": 2,
                         "description": "Decimals of GPU-hour quantities printed on invoices; amounts are always "
                                        "computed from the unrounded figures."},
        "kwh_digits": {"title": "decimals in [0, 6]", "type": "integer", "minimum": 0, "maximum": 6, "default": 3,
                       "description": "Decimals of kWh quantities printed on invoices."},
    }, "The provider as printed at the head of every tenant statement (report billing --format html or pdf), "
       "its payment terms and the default tax.", default={})


def billing_identity() -> Schema:
    return closed_object({
        "legal_name": {**_TEXT, "minLength": 1, "description": "The customer's legal name."},
        "address": {**_LINES, "description": "Postal address, one line per item."},
        "country": {**_COUNTRY, "description": "Country of the address."},
        "customer_id": {**_TEXT, "description": "The provider's customer number."},
        "purchase_order": {**_TEXT, "description": "The customer's purchase order to quote."},
        "tax_id": {**_TEXT, "description": "The customer's VAT or tax registration number; required under VAT "
                                           "categories AE and K."},
        "email": {**_TEXT, "description": "Where invoices go."},
        "peppol_id": {**_PEPPOL, "description": "Peppol electronic address (report billing --format ubl)."},
        "tax": {**tax(), "description": "This tenant's tax, instead of the issuer's default."},
    }, "Who the tenant's invoices are addressed to; printed where set.")
