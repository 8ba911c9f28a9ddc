"""``report billing --format focus``: every column of the FOCUS 1.2 dataset checked against the rule the
specification states for it (FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec, tag v1.2; each rule names its file under
``specification/``), and the money: BilledCost sums to the billing report's total to the cent."""
from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime
from decimal import Decimal

import iso4217
import pytest

from gpudash.base.errors import GpudashError
from gpudash.ops.report import focus
from tests.unit.test_report import billing_report, energy_report, example_model, naive_report

# Allowed values, from the tables of the files named.
CHARGE_CATEGORY = {"Usage", "Purchase", "Tax", "Credit", "Adjustment"}  # columns/chargecategory.md
CHARGE_FREQUENCY = {"One-Time", "Recurring", "Usage-Based"}  # columns/chargefrequency.md
SERVICE_SUBCATEGORY = {  # columns/servicesubcategory.md: (ServiceCategory, ServiceSubcategory), the ones of Compute
    ("Compute", x) for x in ("Containers", "End User Computing", "Quantum Compute", "Serverless Compute",
                             "Virtual Machines", "Other (Compute)")}
SERVICE_CATEGORY = {  # columns/servicecategory.md
    "AI and Machine Learning", "Analytics", "Business Applications", "Compute", "Databases", "Developer Tools",
    "Multicloud", "Identity", "Integration", "Internet of Things", "Management and Governance", "Media",
    "Migration", "Mobile", "Networking", "Security", "Storage", "Web", "Other"}

# attributes/numeric_format.md: an integer, decimal or E notation; no "+", no commas, no symbols or units.
NUMERIC = re.compile(r"^-?[0-9]+(\.[0-9]+)?([eE]-?[0-9]+)?$")
# attributes/datetime_format.md: UTC, extended ISO 8601 'YYYY-MM-DDTHH:mm:ssZ'.
DATETIME = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")
# attributes/unit_format.md: "<plural-units>", "<singular-unit>-<plural-time-units>" or "<plural-units>/<time>".
UNIT = re.compile(r"^[A-Za-z]+(-(Years|Months|Days|Hours|Minutes|Seconds)|/(Year|Month|Day|Hour|Minute|Second))?$")


def _decimal(v: str) -> bool:
    return bool(NUMERIC.match(v))


def _datetime(v: str) -> bool:
    return bool(DATETIME.match(v)) and bool(datetime.fromisoformat(v))


def _currency(v: str) -> bool:  # attributes/currency_format.md: an ISO 4217 alphabetic code
    return v.upper() == v and v in iso4217.Currency.__members__


def _key_value(v: str) -> bool:  # attributes/key_value_format.md: a JSON object, values scalar or null
    obj = json.loads(v)
    return isinstance(obj, dict) and all(not isinstance(x, dict | list) for x in obj.values())


def _one_of(allowed: set[str]):
    return lambda v: v in allowed


def _unit(v: str) -> bool:
    return bool(UNIT.match(v))


def _text(v: str) -> bool:  # attributes/string_handling.md: a string (no placeholder for null: see null_handling.md)
    return v.strip() == v and v.lower() not in ("null", "none", "n/a", "not applicable")


# column: (its file under specification/columns/, feature level, allows nulls, value check)
RULES = {
    "BilledCost": ("billedcost.md", "Mandatory", False, _decimal),
    "BillingAccountId": ("billingaccountid.md", "Mandatory", False, _text),
    "BillingAccountName": ("billingaccountname.md", "Mandatory", True, _text),
    "BillingCurrency": ("billingcurrency.md", "Mandatory", False, _currency),
    "BillingPeriodEnd": ("billingperiodend.md", "Mandatory", False, _datetime),
    "BillingPeriodStart": ("billingperiodstart.md", "Mandatory", False, _datetime),
    "ChargeCategory": ("chargecategory.md", "Mandatory", False, _one_of(CHARGE_CATEGORY)),
    "ChargeClass": ("chargeclass.md", "Mandatory", True, _one_of({"Correction"})),
    "ChargeDescription": ("chargedescription.md", "Mandatory", True, _text),
    "ChargeFrequency": ("chargefrequency.md", "Recommended", False, _one_of(CHARGE_FREQUENCY)),
    "ChargePeriodEnd": ("chargeperiodend.md", "Mandatory", False, _datetime),
    "ChargePeriodStart": ("chargeperiodstart.md", "Mandatory", False, _datetime),
    "ConsumedQuantity": ("consumedquantity.md", "Conditional", True, _decimal),
    "ConsumedUnit": ("consumedunit.md", "Conditional", True, _unit),
    "ContractedCost": ("contractedcost.md", "Mandatory", False, _decimal),
    "EffectiveCost": ("effectivecost.md", "Mandatory", False, _decimal),
    "InvoiceIssuerName": ("invoiceissuer.md", "Mandatory", False, _text),
    "ListCost": ("listcost.md", "Mandatory", False, _decimal),
    "PricingQuantity": ("pricingquantity.md", "Mandatory", True, _decimal),
    "PricingUnit": ("pricingunit.md", "Mandatory", True, _unit),
    "ProviderName": ("provider.md", "Mandatory", False, _text),
    "PublisherName": ("publisher.md", "Mandatory", False, _text),
    "RegionId": ("regionid.md", "Conditional", True, _text),
    "RegionName": ("regionname.md", "Conditional", True, _text),
    "ServiceCategory": ("servicecategory.md", "Mandatory", False, _one_of(SERVICE_CATEGORY)),
    "ServiceName": ("servicename.md", "Mandatory", False, _text),
    "ServiceSubcategory": ("servicesubcategory.md", "Recommended", False,
                           _one_of({x for _, x in SERVICE_SUBCATEGORY})),
    "SkuId": ("skuid.md", "Conditional", True, _text),
    "SubAccountId": ("subaccountid.md", "Conditional", True, _text),
    "SubAccountName": ("subaccountname.md", "Conditional", True, _text),
    "Tags": ("tags.md", "Conditional", True, _key_value),
}
MANDATORY = {c for c, (_, level, _, _) in RULES.items() if level == "Mandatory"}


def _row_rules(row: dict[str, str]) -> list[str]:
    """The rules between columns of one row (each sentence quoted from the file named)."""
    usage = row["ChargeCategory"] == "Usage" and row["ChargeClass"] != "Correction"
    checks = [
        (not usage or row["PricingQuantity"], "pricingquantity.md: not null when Usage and not Correction"),
        (bool(row["PricingUnit"]) == bool(row["PricingQuantity"]), "pricingunit.md: null iff PricingQuantity is"),
        (not usage or row["ConsumedQuantity"], "consumedquantity.md: not null when Usage and not Correction"),
        (bool(row["ConsumedUnit"]) == bool(row["ConsumedQuantity"]), "consumedunit.md: null iff ConsumedQuantity"),
        (not usage or row["SkuId"], "skuid.md: not null when Usage and not Correction"),
        (row["ListCost"] == row["BilledCost"], "listcost.md: ListUnitPrice null, unrelated: ListCost = BilledCost"),
        (row["ContractedCost"] == row["BilledCost"], "contractedcost.md: likewise ContractedCost = BilledCost"),
        (row["ChargeFrequency"] != "Usage-Based" or row["ChargeCategory"] != "Purchase",
         "chargefrequency.md: not Usage-Based when Purchase"),
        ((row["ServiceCategory"], row["ServiceSubcategory"]) in SERVICE_SUBCATEGORY,
         "servicesubcategory.md: the subcategory belongs to the category"),
        (row["BillingPeriodStart"] < row["BillingPeriodEnd"], "billingperiodstart.md: inclusive start < end"),
        (row["ChargePeriodStart"] < row["ChargePeriodEnd"], "chargeperiodstart.md: inclusive start < end"),
    ]
    return [why for ok, why in checks if not ok]


def violations(text: str) -> list[str]:
    """Every FOCUS 1.2 rule ``text`` (a CSV dataset) breaks."""
    reader = csv.DictReader(io.StringIO(text))
    columns = reader.fieldnames or []
    out = [f"columns/{RULES[c][0]}: Mandatory column missing" for c in sorted(MANDATORY - set(columns))]
    out += [f"attributes/column_handling.md: custom column {c} without the x_ prefix"
            for c in columns if c not in RULES and not c.startswith("x_")]
    if [c for c in columns if c.startswith("x_")] != columns[len(columns) - sum(c.startswith("x_") for c in columns):]:
        out.append("attributes/column_handling.md: custom columns after all FOCUS columns")
    for n, row in enumerate(reader, 2):
        for column, (spec, _, nullable, check) in RULES.items():
            value = row.get(column, "")
            if value == "":
                out += [] if nullable else [f"row {n} {column}: columns/{spec}: must not be null"]
            elif not check(value):
                out.append(f"row {n} {column}={value!r}: columns/{spec}: not a valid value")
        out += [f"row {n}: {why}" for why in _row_rules(row)]
    return out


REPORTS = {"gpu": billing_report, "energy": energy_report, "jpy": lambda: naive_report("JPY")}


@pytest.mark.parametrize("name", REPORTS)
def test_every_row_keeps_every_focus_rule_and_billed_cost_sums_to_the_report_total(name):
    report = REPORTS[name]()
    text = focus.focus_csv(report, example_model())
    assert violations(text) == []
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(report.charged)
    assert sum(Decimal(x["BilledCost"]) for x in rows) == report.total_cost  # to the cent: decimal strings
    assert sum(Decimal(x["EffectiveCost"]) for x in rows) == report.total_cost
    digits = 0 if name == "jpy" else 2
    assert all(len(x["BilledCost"].partition(".")[2]) == digits for x in rows)
    for tenant, _, cost in report.totals():
        assert sum(Decimal(x["BilledCost"]) for x in rows if x["SubAccountId"] == tenant) == cost


def test_the_checks_can_fail():
    good = focus.focus_csv(billing_report(), example_model())
    header, first, *_ = good.split("\r\n")
    row = dict(zip(header.split(","), next(csv.reader([first]))))
    for column, bad in (("BilledCost", "+38.40"), ("BillingPeriodEnd", "2026-02-01 04:00:00"),
                        ("ChargeCategory", "usage"), ("Tags", '{"a": [1]}'), ("PricingUnit", ""),
                        ("ServiceSubcategory", "Storage"), ("BillingCurrency", "usd"), ("ProviderName", "")):
        broken = {**row, column: bad}
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=list(row))
        w.writeheader()
        w.writerow(broken)
        assert violations(buf.getvalue()), (column, bad)


def test_units_follow_the_unit_format():
    assert [focus.unit(r) for r in ("nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "nvidia.com/gpu.shared",
                                    "energy")] == ["GPU-Hours", "Slice-Hours", "Replica-Hours", "kWh"]
    assert all(_unit(u) for u in ("GPU-Hours", "Slice-Hours", "Replica-Hours", "kWh"))


def test_without_an_issuer_name_there_is_no_provider():
    with pytest.raises(GpudashError, match="issuer.name"):
        focus.focus_csv(billing_report(), example_model(name=""))
