"""The billing report as a FOCUS 1.2 cost and usage dataset (``report billing --format focus``, CSV on stdout).

FOCUS is the FinOps Foundation's FinOps Open Cost and Usage Specification, which cost platforms import; the
columns and their rules are those of FOCUS 1.2 (FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec, tag v1.2,
``specification/columns/*.md`` and ``specification/attributes/*.md``). One row per billed line (cluster, tenant,
GPU class, resource; the tenants' energy lines too) and report period: FOCUS lets the charge period be any span
(``chargeperiodstart.md``), and the period's figures are the ones the statements print. Costs are decimal strings
at the currency's minor unit (:meth:`BillingReport.billed`, rounded once), so BilledCost sums to the report's
total to the cent. No unit prices are given (they may change within a period: ``listcost.md`` then wants ListCost
to equal BilledCost); ``x_UnitPrice`` carries the average. The provider's own lines (energy held by no pod,
namespaces of no tenant) are billed to no one and not in the dataset. In CSV a null is an empty field.
"""
from __future__ import annotations

import json
from decimal import Decimal

from gpudash.base.errors import GpudashError
from gpudash.base.timestamps import rfc3339
from gpudash.model.types import Model
from gpudash.ops.report import common
from gpudash.ops.report.billing import BillingReport
from gpudash.ops.report.invoice import describe

VERSION = "1.2"
TAG_PREFIX = "gpudash/"  # provider-defined tag keys carry a prefix of the provider's own (tags.md)
COLUMNS = (  # FOCUS columns first, then the x_ ones (column_handling.md)
    "BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency", "BillingPeriodEnd",
    "BillingPeriodStart", "ChargeCategory", "ChargeClass", "ChargeDescription", "ChargeFrequency", "ChargePeriodEnd",
    "ChargePeriodStart", "ConsumedQuantity", "ConsumedUnit", "ContractedCost", "EffectiveCost", "InvoiceIssuerName",
    "ListCost", "PricingQuantity", "PricingUnit", "ProviderName", "PublisherName", "RegionId", "RegionName",
    "ServiceCategory", "ServiceName", "ServiceSubcategory", "SkuId", "SubAccountId", "SubAccountName", "Tags",
    "x_Namespace", "x_GpuClass", "x_Resource", "x_UnitPrice", "x_Partial",
)


def unit(resource: str) -> str:
    """The FOCUS unit (unit_format.md: ``<singular-unit>-<plural-time-units>``) of a resource's quantity."""
    if resource == common.ENERGY:
        return "kWh"
    if "/mig-" in resource:
        return "Slice-Hours"
    return "Replica-Hours" if resource.endswith(".shared") else "GPU-Hours"


def focus_csv(r: BillingReport, model: Model) -> str:
    """``r``'s billed lines as FOCUS rows (RFC 4180 CSV)."""
    from gpudash.ops.report.presentation import _csv

    issuer = model.issuer.name
    if not issuer:
        raise GpudashError("--format focus needs issuer.name in the model: FOCUS ProviderName, PublisherName and "
                           "InvoiceIssuerName must not be null")
    tenants = {t.name: t for t in r.tenants}
    digits = common.money_digits(r.currency)
    rows = []
    for x in r.charged:
        b, tenant = r.billed(x), tenants[x.tenant]
        cost = f"{b.cost:.{digits}f}"
        quantity = f"{b.quantity:.{common.GPU_HOURS_DIGITS}f}"
        energy = x.resource == common.ENERGY
        price = common.exact(x.cost / x.quantity).quantize(Decimal("0.000001")) if x.quantity else Decimal(0)
        tags = {f"{TAG_PREFIX}namespace": x.namespace, f"{TAG_PREFIX}gpu-class": x.gpu_class or None}
        row = {
            "BilledCost": cost, "EffectiveCost": cost, "ListCost": cost, "ContractedCost": cost,
            "BillingAccountId": tenant.billing.customer_id or tenant.name,
            "BillingAccountName": tenant.billing.legal_name or tenant.name, "BillingCurrency": r.currency,
            "BillingPeriodStart": rfc3339(r.start), "BillingPeriodEnd": rfc3339(r.end),
            "ChargePeriodStart": rfc3339(r.start), "ChargePeriodEnd": rfc3339(r.end),
            "ChargeCategory": "Usage", "ChargeClass": "", "ChargeFrequency": "Usage-Based",
            "ChargeDescription": describe(model, x.gpu_class, x.resource, x.cluster),
            "ConsumedQuantity": quantity, "ConsumedUnit": unit(x.resource),
            "PricingQuantity": quantity, "PricingUnit": unit(x.resource),
            "InvoiceIssuerName": issuer, "ProviderName": issuer, "PublisherName": issuer,
            "RegionId": x.cluster, "RegionName": x.cluster, "ServiceCategory": "Compute",
            "ServiceName": "GPU Energy" if energy else "GPU Compute",
            "ServiceSubcategory": "Other (Compute)" if energy else "Containers",
            "SkuId": "energy" if energy else f"{x.gpu_class}/{x.resource}",
            "SubAccountId": tenant.name, "SubAccountName": tenant.billing.legal_name or tenant.name,
            "Tags": json.dumps(tags, sort_keys=True), "x_Namespace": x.namespace, "x_GpuClass": x.gpu_class,
            "x_Resource": x.resource, "x_UnitPrice": f"{price}", "x_Partial": "true" if r.partial else "false",
        }
        rows.append([row[c] for c in COLUMNS])
    return _csv(list(COLUMNS), rows)
