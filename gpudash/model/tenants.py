"""The model's tenants from validated data: unique names and namespaces, quotas only on what the classes offer,
ascending budget alerts, whom each tenant's invoices are addressed to, and the clusters it exists on (only the
model's; every one of them is kept as "every cluster")."""
from __future__ import annotations

from typing import Any

from gpudash.model import vat, vendors
from gpudash.model.context import Ctx, FieldPath, unique
from gpudash.model.sections import tax
from gpudash.model.types import BillingIdentity, GpuClass, Tax, Tenant


def threshold_label(fraction: float) -> str:
    """An alert_at fraction as the rendered rules, alerts and tests write it in rows and labels (6 significant
    digits: the loader refuses a fraction this does not write exactly, so two thresholds never share a label)."""
    return f"{fraction:g}"


def tenants(items: list[dict[str, Any]], classes: tuple[GpuClass, ...], clusters: list[str], default_tax: Tax,
            ctx: Ctx) -> tuple[Tenant, ...]:
    unique(items, "name", ("tenants",), "tenant name", ctx)
    unique(items, "namespace", ("tenants",), "namespace", ctx)
    offered = sorted({p.resource for c in classes for p in c.mig})
    mig_prefixes = tuple(v.mig_resource_prefix for v in vendors.with_feature("mig_resource_prefix"))
    built = []
    for index, t in enumerate(items):
        for resource in t.get("quota", {}):
            ctx.check(not resource.startswith(mig_prefixes) or resource in offered,
                      ("tenants", index, "quota", resource),
                      f"no GPU class of the model has MIG profile {resource} (classes offer: "
                      f"{', '.join(offered) or 'no MIG profile'}): the quota would limit nothing")
        alert_at = t["alert_at"]
        for j, fraction in enumerate(alert_at):
            ctx.check(float(threshold_label(fraction)) == fraction, ("tenants", index, "alert_at", j),
                      f"{fraction} has more than 6 significant digits: the rules write a threshold as "
                      f"{threshold_label(fraction)}, which would merge it with another")
        for j in range(1, len(alert_at)):
            ctx.check(alert_at[j] > alert_at[j - 1], ("tenants", index, "alert_at", j),
                      f"{alert_at[j]} is not above {alert_at[j - 1]}: alert_at must be strictly ascending")
        for j, cluster in enumerate(t.get("clusters", ())):
            ctx.check(cluster in clusters, ("tenants", index, "clusters", j),
                      f"{cluster!r} is not one of the model's clusters ({', '.join(sorted(clusters))})")
        on = tuple(sorted(t.get("clusters", ())))
        built.append(Tenant(
            name=t["name"], namespace=t["namespace"], budget=float(t["budget"]),
            alert_at=tuple(float(x) for x in alert_at),
            quota=tuple(sorted((k, int(v)) for k, v in t.get("quota", {}).items())),
            receiver=t.get("receiver", f"tenant-{t['name']}"),
            billing=_billing_identity(t.get("billing", {}), ("tenants", index, "billing"), default_tax, ctx),
            clusters=() if set(on) >= set(clusters) else on))
    return tuple(sorted(built, key=lambda t: t.name))


def _billing_identity(d: dict[str, Any], path: FieldPath, default_tax: Tax, ctx: Ctx) -> BillingIdentity:
    """Whom the invoices go to; refused when its VAT category (its own or the issuer's) needs the buyer's VAT ID
    and it has none (EN 16931 BR-AE-02, BR-IC-02)."""
    fields: dict[str, Any] = {k: tuple(v) if k == "address" else tax(v, (*path, "tax"), ctx) if k == "tax" else v
                              for k, v in d.items()}
    identity = BillingIdentity(**fields)
    category = vat.CATEGORIES[(identity.tax or default_tax).code]
    ctx.check(identity.tax_id or not category.buyer_vat_id, (*path, "tax_id"),
              f"VAT category {category.code} ({category.reason.lower()}) needs the buyer's VAT ID: set tax_id")
    return identity
