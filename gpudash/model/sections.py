"""The model's settings sections from validated data: currency, billing, sources, alerts, grafana, mco, issuer,
prune and energy, each with the checks that span its fields (GPU classes and tenants have their own modules)."""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import iso4217

from gpudash.base import kube, layout
from gpudash.model import receiver_files, vat, vendors
from gpudash.model.context import Ctx, FieldPath, short
from gpudash.model.durations import format_duration, parse_duration
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.schema import HTTP_SECRETS, INLINE_SECRETS, THANOS_QUERIER_URL
from gpudash.model.types import (
    DAY,
    DEFAULT_BACKFILL_HOURS,
    MIN_RETENTION,
    SPOKE_TIERS,
    Alerts,
    Billing,
    Energy,
    Exporter,
    Grafana,
    IdleAlerts,
    Issuer,
    Mco,
    Prune,
    Retention,
    SelfManaged,
    Sources,
    Tax,
    TenantDatasource,
)
from gpudash.model.validate import tree_copy
from gpudash.promql.read import HOUR

_RE2_UNSUPPORTED = re.compile(r"\\[1-9]|\(\?(?:=|!|<=|<!|P=|>|\()|[*+?}]\+")
_RE_ESCAPES_AND_CLASSES = re.compile(r"\\[^1-9]|\[(?:\\.|[^\]\\])*\]")


def currency(code: str, ctx: Ctx) -> str:
    """An ISO 4217 code with a minor unit (invoices round each line to it), per the ``iso4217`` package's copy
    of the published list."""
    try:
        minor = iso4217.Currency(code).exponent
    except ValueError:
        minor = None
        ctx.check(False, ("currency",), f"{code!r} is not an ISO 4217 currency code")
    ctx.check(minor is not None, ("currency",), f"{code!r} has no minor unit in ISO 4217 (a fund or metal): "
                                                "invoices cannot be rounded in it")
    return code


def billing(d: dict[str, Any], acm: bool, ctx: Ctx) -> Billing:
    """``acm``: the model renders the ACM target, where the spoke tier is the default (delivered by an ACM Policy)."""
    res, push, burn = (parse_duration(d[k]) for k in ("resolution", "mco_interval", "burn_rate_window"))
    ctx.check(10 <= res <= 900, ("billing", "resolution"), f"{d['resolution']} must be between 10s and 15m")
    ctx.check(HOUR % res == 0, ("billing", "resolution"),
              f"{d['resolution']} must divide 1h exactly (e.g. 10s, 15s, 30s, 1m, 5m, 15m)")
    ctx.check(15 <= push <= HOUR, ("billing", "mco_interval"),
              f"{d['mco_interval']} must be between 15s and 1h (the range ACM accepts)")
    ctx.check(push >= res, ("billing", "mco_interval"),
              f"{d['mco_interval']} must be at least billing.resolution ({d['resolution']})")
    ctx.check(burn >= 2 * push, ("billing", "burn_rate_window"),
              f"{d['burn_rate_window']} must be at least 2 x billing.mco_interval ({format_duration(2 * push)})")
    spoke_tier = d.get("spoke_tier", SPOKE_TIERS[1] if acm else SPOKE_TIERS[0])
    tier = spoke_tier == "policy"
    backfill = d.get("backfill_hours", DEFAULT_BACKFILL_HOURS if tier else 0)
    ctx.check(tier or backfill == 0, ("billing", "backfill_hours"),
              f"{backfill} needs billing.spoke_tier: policy (without the tier every push would re-derive each "
              "earlier hour from raw series); set it to 0 or turn the tier on")
    return Billing(period=d["period"], resolution=res, mco_interval=push, burn_rate_window=burn,
                   spoke_tier=spoke_tier, retention=_retention(d["retention"], ctx), backfill_hours=backfill)


def _retention(d: dict[str, Any], ctx: Ctx) -> Retention:
    """Raw samples are what reports read, so raw must cover the dispute window; downsampled data (dashboards)
    is kept at least as long as the finer resolution it comes from."""
    raw, five, hour = (parse_duration(d[k]) for k in ("raw", "5m", "1h"))
    floor = format_duration(MIN_RETENTION)
    ctx.check(raw >= MIN_RETENTION, ("billing", "retention", "raw"),
              f"{d['raw']} must be at least {floor} (13 months: reports read raw samples, and a provider must be "
              "able to re-invoice last year's month)")
    ctx.check(five >= raw, ("billing", "retention", "5m"), f"{d['5m']} must be at least raw ({d['raw']})")
    ctx.check(hour >= five, ("billing", "retention", "1h"), f"{d['1h']} must be at least 5m ({d['5m']})")
    return Retention(raw=raw, five_minutes=five, one_hour=hour)


def mco(d: dict[str, Any]) -> Mco:
    storage = d["object_storage"]
    return Mco(output=d["output"], name=d["name"], storage_secret=storage["secret"], storage_key=storage["key"],
               alertmanager_config=d["alertmanager_config"])


def issuer(d: dict[str, Any], ctx: Ctx) -> Issuer:
    return Issuer(name=d.get("name", ""), address=tuple(d.get("address", ())), country=d.get("country", ""),
                  tax_id=d.get("tax_id", ""), email=d.get("email", ""), peppol_id=d.get("peppol_id", ""),
                  payment_terms_days=d["payment_terms_days"],
                  payment=tuple(d.get("payment", ())), iban=d.get("iban", ""), bic=d.get("bic", ""),
                  tax=tax(d["tax"], ("issuer", "tax"), ctx), invoice_prefix=d["invoice_prefix"],
                  invoice_series=d.get("invoice_series", ""), hours_digits=d["hours_digits"],
                  kwh_digits=d["kwh_digits"])


def tax(d: dict[str, Any], path: FieldPath, ctx: Ctx) -> Tax:
    """A tax rate, or none under its VAT category (the schema's oneOf; its label default is filled here), its
    rate and reason as EN 16931 allows them for the category (:mod:`gpudash.model.vat`)."""
    t = Tax(label=d.get("label", "VAT"), rate=float(d.get("rate", 0)), exempt=d.get("exempt", ""),
            category=d.get("category", ""), exemption_code=d.get("exemption_code", ""))
    c = vat.CATEGORIES[t.code]
    if t.code == vat.STANDARD:
        ctx.check(t.rate > 0, (*path, "rate"), "category S (standard rate) needs a rate above 0 (EN 16931 BR-S-05)")
    elif t.code == vat.ZERO:
        ctx.check(t.rate == 0, (*path, "rate"), "category Z (zero rated) has rate 0 (EN 16931 BR-Z-05)")
    elif t.exemption_code:
        problem = vat.code_problem(t.code, t.exemption_code)
        ctx.check(not problem, (*path, "exemption_code"), problem)
    ctx.check(t.reason or t.vatex or not c.reason_required, (*path, "exempt"),
              f"category {t.code} ({c.name}) needs the exemption reason: set exempt, exemption_code or both "
              f"(EN 16931 BR-{t.code}-10)")
    return t


def energy(d: dict[str, Any], clusters: list[str], ctx: Ctx) -> Energy:
    overrides = d.get("clusters", {})
    for cluster in overrides:
        ctx.check(cluster in clusters, ("energy", "clusters", cluster),
                  f"{cluster!r} is not one of the model's clusters ({', '.join(sorted(clusters))})")
    return Energy(price_per_kwh=float(d["price_per_kwh"]),
                  cluster_prices=tuple(sorted((c, float(p)) for c, p in overrides.items())),
                  unallocated_alert_ratio=float(d["unallocated_alert_ratio"]), in_budget=d["in_budget"], metered=True)


def prune(d: dict[str, Any], clusters: list[str], ctx: Ctx) -> Prune:
    interval = parse_duration(d["check_interval"])
    ctx.check(15 <= interval <= DAY, ("prune", "check_interval"), f"{d['check_interval']} must be between 15s and 1d")
    for i, cluster in enumerate(d.get("clusters", ())):
        ctx.check(cluster in clusters, ("prune", "clusters", i), f"{cluster!r} is not one of the model's clusters "
                                                                 f"({', '.join(sorted(clusters))})")
    host = urlsplit(d["prometheus_url"]).hostname or ""
    ctx.check("token_secret" in d or host.endswith(kube.SERVICE_DNS_SUFFIXES), ("prune", "token_secret"),
              f"required: prometheus_url ({host}) is not a Service of the pruner's own cluster (*.svc), and the pod's "
              "service account token is valid on its own cluster only (a hub's rbac-query-proxy or Thanos Querier "
              "refuses it): name a Secret holding a token of the hub")
    chosen = d.get("clusters")
    for i, cluster in enumerate(clusters if chosen is None else chosen):
        problem = _prune_cluster_problem(cluster)
        ctx.check(problem is None, ("clusters", i) if chosen is None else ("prune", "clusters", i), str(problem))
    return Prune(image=d["image"], prometheus_url=d["prometheus_url"],
                 clusters=tuple(sorted(d.get("clusters", clusters))), namespace=d["namespace"],
                 run_mode=d["run_mode"], check_interval=interval, duration=parse_duration(d["duration"]),
                 max_actions=d["max_actions"], token_secret=d.get("token_secret", ""),
                 trusted_ca_bundle=d["trusted_ca_bundle"])


def _prune_cluster_problem(cluster: str) -> str | None:
    """Why the pruner cannot be rendered for ``cluster``, or None: its Deployment's name too long for Kubernetes, or
    its folder (prune/<cluster>/) where the pruner writes a file."""
    name = kube.prune_deployment_name(cluster)
    if len(name) > kube.DEPLOYMENT_MAX:
        return (f"{short(cluster)}: the pruner's Deployment there, {name[:20]}..., would be {len(name)} characters; "
                f"Kubernetes takes at most {kube.DEPLOYMENT_MAX} (its ReplicaSet adds 11): a cluster name of at most "
                f"{kube.DEPLOYMENT_MAX - len(kube.prune_deployment_name(''))} characters, or leave it out of "
                "prune.clusters")
    folder = layout.prune_deployment(cluster).rpartition("/")[0]
    files = (layout.PRUNE_NAMESPACE, layout.PRUNE_SERVICE_ACCOUNT, layout.PRUNE_SERVICE, layout.PRUNE_SERVICE_MONITOR,
             layout.PRUNE_TRUSTED_CA, layout.kustomization(layout.PRUNE))
    ends = (layout.prune_role("").rpartition("/")[2], layout.prune_role_binding("").rpartition("/")[2])
    if folder in files or folder.endswith(ends):  # a file, or a tenant namespace's Role or RoleBinding
        return f"{short(cluster)}: its folder {folder}/ would be a file the pruner writes there; rename the cluster"
    return None


def _re2_problem(pattern: str) -> str | None:
    """Why ``pattern`` is no RE2 regex (Prometheus), or None. Python's ``re`` stands in for RE2's syntax."""
    try:
        re.compile(pattern)
    except re.error as err:
        return f"{pattern!r} is not a valid regular expression: {err}"
    found = _RE2_UNSUPPORTED.search(_RE_ESCAPES_AND_CLASSES.sub("", pattern))
    if found:
        return (f"{pattern!r} uses {found.group()!r}, which RE2 (Prometheus) does not support (no lookarounds, "
                "backreferences, atomic groups or possessive quantifiers)")
    return None


def sources(d: dict[str, Any], ctx: Ctx) -> Sources:
    for key in (v.source for v in vendors.VENDORS.values()):
        problem = _re2_problem(d[key]["job"])
        ctx.check(problem is None, ("sources", key, "job"), str(problem))
    managed = d.get("self_managed")
    if managed is not None:
        known = {ksm.node_label(k) for k in ksm.product_keys()}
        labels = (f for v in vendors.VENDORS.values() for f in (v.product_label_field, v.partition_label_field) if f)
        for key in labels:
            ctx.check(d[key] in known, ("sources", key),
                      f"{d[key]!r} is not kube-state-metrics' name of a node label gpudash knows ("
                      f"{', '.join(ksm.product_keys())}), so sources.self_managed cannot write its "
                      "--metric-labels-allowlist: use the default or omit self_managed")
        wirings = [v.wiring for v in vendors.VENDORS.values() if v.wiring]
        selected = ((w.labels_field, tuple(sorted(managed[w.labels_field].items()))) for w in wirings)
        managed = SelfManaged(managed["namespace"], tuple(selected))
    return Sources(kube_state_metrics_job=d["kube_state_metrics_job"], self_managed=managed,
                   exporters=tuple((v.source, Exporter(**d[v.source])) for v in vendors.VENDORS.values()),
                   settings=tuple((key, d[key]) for v in vendors.VENDORS.values() for key, _ in v.sources_fields))


def alerts(d: dict[str, Any], billing: Billing, acm: bool, ctx: Ctx) -> Alerts:
    idle = d["idle"]
    window = parse_duration(idle["window"])
    ctx.check(window >= billing.min_window, ("alerts", "idle", "window"),
              f"{idle['window']} must be at least 2 x billing.mco_interval ({format_duration(billing.min_window)})")
    for key in ("namespace_regex", "model_regex"):
        problem = _re2_problem(idle[key])
        ctx.check(problem is None, ("alerts", "idle", key), str(problem))
    return Alerts(
        runbook_url=d["runbook_url"], dashboard_url=d["dashboard_url"].rstrip("/"),
        provider_receiver=d["provider_receiver"], burn_jump_factor=float(d["burn_jump_factor"]),
        idle=IdleAlerts(window=window, namespace_regex=idle["namespace_regex"], model_regex=idle["model_regex"],
                        power_veto_watts=float(idle["power_veto_watts"])),
        receivers=_receivers(d["receivers"], acm, ctx))


def _receivers(d: dict[str, Any], acm: bool, ctx: Ctx) -> tuple[tuple[str, dict[str, Any]], ...]:
    """Receivers as given, once no integration inlines a secret (in its own fields or its http_config) and, for
    the ACM hub, every file they read is where MCO mounts a listed Secret (:mod:`gpudash.model.receiver_files`)."""
    def refuse(fields: dict[str, Any], secrets: dict[str, str], path: FieldPath) -> None:
        for key in fields:
            ctx.check(key not in secrets, (*path, key), "a secret inlined in the model; reference a file mounted "
                                                        f"into Alertmanager with {secrets.get(key)} instead")

    def http(value: Any, path: FieldPath) -> None:
        if isinstance(value, dict):
            refuse(value, HTTP_SECRETS, path)
            for key, item in value.items():
                http(item, (*path, key))

    for name, integrations in d.items():
        for kind, entries in integrations.items():
            for i, entry in enumerate(entries):
                path = ("alerts", "receivers", name, kind, i)
                refuse(entry, INLINE_SECRETS[kind], path)
                http(entry.get("http_config"), (*path, "http_config"))
                for where, file in receiver_files.file_fields(entry) if acm else ():
                    ctx.check(receiver_files.mounted_secret(file) is not None, (*path, *where),
                              f"{file!r}: the ACM hub's Alertmanager reads files only from the Secrets MCO mounts, "
                              f"at {receiver_files.MOUNTABLE}")
    return tuple((name, tree_copy(d[name])) for name in sorted(d))


def grafana(d: dict[str, Any]) -> Grafana:
    source = d["tenant_datasource"]
    default_url = THANOS_QUERIER_URL if source["mode"] == "thanos-querier" else d["provider_datasource_url"]
    return Grafana(
        provider_datasource_url=d["provider_datasource_url"], provider_folder=d["provider_folder"],
        tenant_datasource=TenantDatasource(mode=source["mode"], url=source.get("url", default_url),
                                           token_env=source["token_env"]))
