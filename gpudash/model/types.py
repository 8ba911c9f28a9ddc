"""The typed, immutable model every generator reads.

The loader (``gpudash.model.load``) is the only code that builds these objects; generators receive a
validated :class:`Model` and never see raw YAML. Durations are whole seconds, money is ``float`` in the
model's currency, and every tuple is sorted so that output derived from it is deterministic.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpudash.model import vat, vendors
from gpudash.model.versions import ACM_VERSIONS
from gpudash.promql.read import HOUR

Vendor = str  # a registered vendor's name (gpudash.model.vendors.VENDORS)


DAY = 24 * HOUR
# Hub retention floor: 13 calendar months (at most 397 days), so that last year's same month can be re-invoiced.
MIN_RETENTION = 397 * DAY
# billing.spoke_tier: "none" re-derives each hour from raw series at every push; "policy" records the per-step
# allocation on every spoke (an ACM Policy delivers the rules) and the pushes read it: the default for a model that
# renders the ACM target (model.load), where "none" costs more than a minute of query time per push at 10,000 GPUs.
SPOKE_TIERS = ("none", "policy")
# billing.backfill_hours: the default with the spoke tier, and the most a push may carry (each earlier hour is one more
# copy of every hourly series on the hub, and one more hourly sum per push on the spoke).
DEFAULT_BACKFILL_HOURS = 24
MAX_BACKFILL_HOURS = 72


@dataclass(frozen=True)
class Retention:
    """Seconds the hub's object storage keeps each resolution (Thanos compactor, MCO ``retentionConfig``)."""

    raw: int = MIN_RETENTION
    five_minutes: int = MIN_RETENTION
    one_hour: int = MIN_RETENTION


@dataclass(frozen=True)
class Billing:
    period: str  # "monthly": calendar month, UTC
    resolution: int  # seconds: spoke sampling step of the allocation integral
    mco_interval: int  # seconds: ACM metrics-collector push interval
    burn_rate_window: int  # seconds: window of the "recent" burn rate used by projections and alerts
    spoke_tier: str = SPOKE_TIERS[0]
    retention: Retention = Retention()
    backfill_hours: int = 0  # earlier hours each push carries besides the previous one (billing.backfill_hours)

    @property
    def tier(self) -> bool:
        """Whether the spoke recording tier is on (``spoke_tier: policy``)."""
        return self.spoke_tier == "policy"

    @property
    def min_window(self) -> int:
        """The shortest window that always holds two pushes: burn-rate and idle windows are at least this."""
        return 2 * self.mco_interval


@dataclass(frozen=True)
class Exporter:
    """How one GPU exporter's series are found and attributed to pods."""

    job: str  # RE2 regex on the Prometheus job, anchored
    tenant_label: str  # "namespace" (scraped with honorLabels: true) or "exported_namespace" (honorLabels unset)

    @property
    def pod_label(self) -> str:
        """Pod label: ``exported_pod`` when the tenant label is ``exported_namespace``."""
        return self.tenant_label.removesuffix("namespace") + "pod"

    @property
    def container_label(self) -> str:
        return self.tenant_label.removesuffix("namespace") + "container"


@dataclass(frozen=True)
class SelfManaged:
    """Spokes whose GPU exporters are not scraped by the GPU Operators' ServiceMonitors: render writes wiring/."""

    namespace: str  # the exporters' namespace, where the ServiceMonitors go (labelled for cluster monitoring)
    # (a vendor's Wiring.labels_field, its labels): the labels its ServiceMonitor or own Service selects
    service_labels: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()

    def labels(self, field: str) -> tuple[tuple[str, str], ...]:
        """The labels under ``sources.self_managed.<field>``."""
        return dict(self.service_labels)[field]


@dataclass(frozen=True, init=False)
class Sources:
    """Label and job names that differ between installations. The registered vendors' keys (an exporter's section,
    a vendor's own label or prefix field) are read as the YAML spells them: ``sources.<key>``."""

    kube_state_metrics_job: str
    self_managed: SelfManaged | None  # None: the GPU Operators' ServiceMonitors scrape the exporters
    exporters: tuple[tuple[str, Exporter], ...]  # (sources.<key>, exporter) of every registered vendor, by key
    settings: tuple[tuple[str, str], ...]  # (sources.<key>, value) of the vendors' own fields (Vendor.sources_fields)

    def __init__(self, kube_state_metrics_job: str, self_managed: SelfManaged | None = None,
                 exporters: tuple[tuple[str, Exporter], ...] = (), settings: tuple[tuple[str, str], ...] = (),
                 **keys: Exporter | str) -> None:
        """``keys``: vendors' keys by name (``dataclasses.replace(sources, <key>=...)`` changes one)."""
        found = dict(exporters) | {k: v for k, v in keys.items() if isinstance(v, Exporter)}
        plain = dict(settings) | {k: v for k, v in keys.items() if isinstance(v, str)}
        for name, value in (("kube_state_metrics_job", kube_state_metrics_job), ("self_managed", self_managed),
                            ("exporters", tuple(sorted(found.items()))),
                            ("settings", tuple(sorted(plain.items())))):
            object.__setattr__(self, name, value)

    def __getattr__(self, key: str) -> Any:
        """A vendor's key, ``sources.<key>``: its exporter or its own field's value."""
        if key.startswith("_"):
            raise AttributeError(key)
        known = dict(self.__dict__.get("exporters", ())) | dict(self.__dict__.get("settings", ()))
        if key not in known:
            raise AttributeError(key)
        return known[key]

    def exporter(self, key: str) -> Exporter:
        """The exporter configured under ``sources.<key>`` (a vendor's ``source``)."""
        return dict(self.exporters)[key]


@dataclass(frozen=True)
class MigProfile:
    """One MIG profile of a GPU model, priced for one class."""

    name: str  # e.g. "1g.10gb"
    compute_slices: int
    memory_slices: int
    price_per_hour: float
    price_source: str  # "model" (set in gpudash.yaml) or "default" (the max-share rule)
    resource: str  # the device plugin's resource of the profile (Vendor.mig_resource)


@dataclass(frozen=True)
class GpuClass:
    name: str
    vendor: Vendor
    products: tuple[str, ...]  # as written in the model (NVML/marketing names, spaces allowed)
    price_per_hour: float
    mig_model: str | None  # key of gpudash.model.mig.PROFILES, None when the GPU has no MIG
    mig: tuple[MigProfile, ...]  # every profile of mig_model, priced (explicitly or by the default rule)
    shared_price_per_hour: float  # price of one time-sliced replica (Vendor.shared_resource)
    time_slicing_replicas: int = 1  # replicas per physical GPU (1 = no time-slicing configured)
    partitions: tuple[tuple[str, float], ...] = ()  # (partition e.g. "cpx_nps4", price per hour), set in the model

    @property
    def whole_resource(self) -> str:
        return vendors.vendor(self.vendor).resource


@dataclass(frozen=True)
class Tax:
    """The tax an invoice adds to its subtotal: a rate in percent under a label (``VAT 19 %``), or none with the
    reason printed instead, under an EN 16931 VAT category (:mod:`gpudash.model.vat`)."""

    label: str = "Tax"
    rate: float = 0.0  # percent
    exempt: str = ""  # the exemption's reason (BT-120); set: no tax is added
    category: str = ""  # UNTDID 5305 code; "": S with a rate above 0, Z with 0, E with a reason
    exemption_code: str = ""  # VATEX code (BT-121)

    @property
    def code(self) -> str:
        """The VAT category (BT-118)."""
        return self.category or (vat.EXEMPT if self.exempt else vat.STANDARD if self.rate > 0 else vat.ZERO)

    @property
    def charged(self) -> bool:
        """Whether the rate is added to the subtotal (only a standard-rated tax adds anything)."""
        return self.code == vat.STANDARD

    @property
    def reason(self) -> str:
        """The exemption reason as printed and written (BT-120): the model's, else the category's standard text."""
        return self.exempt or vat.CATEGORIES[self.code].reason

    @property
    def vatex(self) -> str:
        """The VATEX code (BT-121): the model's, else the one the category means."""
        return self.exemption_code or vat.CATEGORIES[self.code].vatex


@dataclass(frozen=True)
class BillingIdentity:
    """Who a tenant's invoice is addressed to (all optional; the statement prints what is set)."""

    legal_name: str = ""
    address: tuple[str, ...] = ()
    country: str = ""  # ISO 3166-1 alpha-2
    customer_id: str = ""
    purchase_order: str = ""
    tax_id: str = ""
    email: str = ""
    peppol_id: str = ""  # SCHEME:ID, the buyer's Peppol electronic address (BT-49)
    tax: Tax | None = None  # None: the issuer's default tax


@dataclass(frozen=True)
class Tenant:
    name: str
    namespace: str
    budget: float  # per billing period, in the model's currency
    alert_at: tuple[float, ...]  # fractions of the budget, ascending, e.g. (0.5, 0.9, 1.0)
    quota: tuple[tuple[str, int], ...]  # (Kubernetes resource name, max requested), sorted; empty = no quota
    receiver: str  # Alertmanager receiver for this tenant's alerts
    billing: BillingIdentity = BillingIdentity()
    clusters: tuple[str, ...] = ()  # the clusters its namespace exists on, sorted; empty = every cluster of the model

    def on(self, cluster: str) -> bool:
        """Whether the tenant's namespace exists on ``cluster`` (its quota and Roles may go there)."""
        return not self.clusters or cluster in self.clusters


IDLE_WINDOW = "30m"  # default alerts.idle.window (also the pruner's --idle-window)


@dataclass(frozen=True)
class IdleAlerts:
    window: int  # seconds with zero peak activity before a GPU counts as idle
    namespace_regex: str  # RE2, anchored by Prometheus; ".*" = all
    model_regex: str  # RE2 on the exporter's model name; ".*" = all
    power_veto_watts: float  # 0 = off; otherwise a GPU drawing at least this much is never idle


@dataclass(frozen=True)
class Alerts:
    runbook_url: str  # pattern; "{alertname}" is replaced by the alert name
    dashboard_url: str  # Grafana base URL used for dashboard links in annotations
    provider_receiver: str
    burn_jump_factor: float  # burn-rate jump alert: current rate >= factor x the window's average
    idle: IdleAlerts
    receivers: tuple[tuple[str, dict[str, Any]], ...] = ()  # (name, integrations in Alertmanager's format), by name


@dataclass(frozen=True)
class TenantDatasource:
    mode: str  # "thanos-querier" | "rbac-query-proxy"
    url: str
    token_env: str  # environment variable holding the tenant's bearer token in Grafana provisioning


@dataclass(frozen=True)
class Grafana:
    provider_datasource_url: str
    tenant_datasource: TenantDatasource
    provider_folder: str


@dataclass(frozen=True)
class Mco:
    """How gpudash renders ACM's ``MultiClusterObservability`` settings."""

    output: str = "patch"  # "patch": a kustomize Component patching the user's CR; "resource": the whole CR
    name: str = "observability"  # the CR's name
    storage_secret: str = "thanos-object-storage"  # Secret holding the Thanos object storage config
    storage_key: str = "thanos.yaml"  # its key
    # "render": mco/ holds the hub Alertmanager's Secret (MCO's default configuration plus gpudash's route);
    # "merge": no Secret, the hub admin merges gpudash's route into their own (docs/alerts.md, "Routing")
    alertmanager_config: str = "render"


@dataclass(frozen=True)
class Issuer:
    """Who issues the tenants' statements (printed in their header)."""

    name: str = ""
    address: tuple[str, ...] = ()  # postal address, one line each
    country: str = ""  # ISO 3166-1 alpha-2 (an e-invoice's seller country)
    tax_id: str = ""
    email: str = ""
    peppol_id: str = ""  # SCHEME:ID, the seller's Peppol electronic address (BT-34)
    payment_terms_days: int = 30  # due date = issue date + this
    payment: tuple[str, ...] = ()  # payment details as printed, one line each (bank, IBAN, reference rule)
    iban: str = ""  # the e-invoice's SEPA credit transfer account (payment means 58), when set
    bic: str = ""
    tax: Tax = Tax()  # every tenant's unless its billing identity names another
    invoice_prefix: str = "GPU"  # final invoice numbers: <prefix>[-<series>]-<sequence> (the ledger counts them)
    invoice_series: str = ""
    hours_digits: int = 2  # decimals of GPU-hour quantities on an invoice (amounts use the unrounded figures)
    kwh_digits: int = 3  # decimals of kWh quantities on an invoice


PRUNE_RUN_MODES = ("dry-run", "scale-down")  # gpudash prune --run-mode; dry-run is the default everywhere
PRUNE_CHECK_INTERVAL = "3m"  # default time between daemon cycles
PRUNE_MAX_ACTIONS = 10  # default most workloads stopped per cycle


@dataclass(frozen=True)
class Prune:
    """The idle-GPU pruner's in-cluster deployment (``prune/``): one daemon per cluster in ``clusters``."""

    image: str  # container image holding gpudash with the ``prune`` extra
    prometheus_url: str  # hub Thanos Querier (or the cluster's Prometheus) serving the recorded idle series
    clusters: tuple[str, ...]  # cluster labels a pruner is rendered for, sorted
    namespace: str
    run_mode: str  # "dry-run" | "scale-down"
    check_interval: int  # seconds between cycles
    duration: int  # seconds a pod must already have been recorded idle, beyond alerts.idle.window
    max_actions: int  # most workloads stopped per cycle
    token_secret: str  # Secret (key "token") holding the Prometheus bearer token; "" = the service account's
    trusted_ca_bundle: bool = False  # verify prometheus_url with the cluster's injected trusted CA bundle


# The delivery targets a model may choose (``outputs.targets``): name -> what it delivers. Each is built by
# :mod:`gpudash.render.targets` from the content of a render.
TARGETS: dict[str, str] = {
    "files": "plain Grafana dashboard JSON (dashboards/*.json, and dashboards/import/ with __inputs) for manual "
             "import or any Grafana",
    "prometheus-rule": "PrometheusRule objects for a cluster's own Prometheus (rules/kubernetes, alerts/kubernetes)",
    "acm": "the ACM hub: MCO allowlist, Thanos Ruler rules and settings (mco/) and hub Grafana ConfigMaps "
           "(dashboards/acm/)",
    "grafana-provisioning": "self-managed Grafana: file provisioning (grafana/provisioning/, with the plain "
                            "dashboards it points at) and grafana/bootstrap.json for gpudash grafana-bootstrap",
    "grafana-operator": "grafana-operator v5 custom resources (grafana/operator/)",
    "mixin": "a jsonnet monitoring mixin of the same rules, alerts and dashboards (mixin/)",
}
ALL_TARGETS = tuple(TARGETS)


# outputs.argocd.mode. ACM's pull model is refused: its cluster secrets in ArgoCD's namespace carry the dummy server
# https://<cluster>-control-plane (stolostron/multicloud-integrations pkg/controller/gitopscluster/import_clusters.go,
# CreateManagedClusterSecretInArgo), so the hub's cluster-generator ApplicationSet would sync to no real cluster.
ARGOCD_MODES = ("push", "pull")
ARGOCD_PULL_REFUSED = ("ACM's pull model is not supported: its cluster secrets carry a dummy server "
                       "(https://<cluster>-control-plane), so the hub's ApplicationSet would reach no cluster; use "
                       "the push model, or point each spoke's own ArgoCD at deploy/clusters/<cluster>")


@dataclass(frozen=True)
class ArgoCD:
    """Where ArgoCD reads the rendered output (``outputs.argocd``): the Git repository, revision and folder."""

    repo_url: str
    revision: str = "HEAD"
    path: str = "."  # the output folder within the repository
    namespace: str = "openshift-gitops"  # the ArgoCD instance's namespace (OpenShift GitOps' default)
    instance: str = "openshift-gitops"  # the ArgoCD CR's name (its application controller's ServiceAccount follows)
    controller_rbac: bool = False  # render the least-privilege RBAC its application controller needs
    mode: str = "push"  # how ACM hands the spokes to ArgoCD: "push" (the only one supported; "pull" is refused)


@dataclass(frozen=True)
class Outputs:
    """What ``render`` writes: the delivery targets of :data:`TARGETS` (all by default), and ArgoCD Applications
    when ``argocd`` says where the output is committed."""

    targets: tuple[str, ...] = ALL_TARGETS  # in the order of TARGETS
    argocd: ArgoCD | None = None
    acm_version: str = ACM_VERSIONS[0]  # the oldest ACM hub the output is applied on


@dataclass(frozen=True)
class Energy:
    """GPU energy as a billed quantity: its price, the idle-fleet alert and whether budgets count it."""

    price_per_kwh: float = 0.0  # in the model's currency; 0 = energy is metered and shown, not charged
    cluster_prices: tuple[tuple[str, float], ...] = ()  # (cluster, price per kWh) overrides, sorted
    unallocated_alert_ratio: float = 0.5  # alert when this share of a cluster's GPU energy went to no pod
    in_budget: bool = False  # budgets (period-to-date, projection, thresholds) include the energy cost
    metered: bool = False  # the model has an energy section: only then are energy rules, alerts and panels rendered

    def price(self, cluster: str) -> float:
        return dict(self.cluster_prices).get(cluster, self.price_per_kwh)


@dataclass(frozen=True)
class Model:
    currency: str
    billing: Billing
    sources: Sources
    gpu_classes: tuple[GpuClass, ...]  # sorted by name
    tenants: tuple[Tenant, ...]  # sorted by name
    clusters: tuple[str, ...]  # sorted
    alerts: Alerts
    grafana: Grafana
    mco: Mco = Mco()
    issuer: Issuer = Issuer()
    prune: Prune | None = None  # None: no pruner rendered
    outputs: Outputs = Outputs()
    energy: Energy = Energy()
    source: str = field(default="<bundled example>", compare=False)  # file the model came from
    tenant_order: tuple[str, ...] = field(default=(), compare=False)  # tenant names as the file lists them

    def tenants_in_file_order(self) -> tuple[Tenant, ...]:
        """The tenants in the model file's order (mock files index them so); by name when it is unknown."""
        by_name = {t.name: t for t in self.tenants}
        return tuple(by_name[n] for n in self.tenant_order) or self.tenants

    def tenant_for_namespace(self, namespace: str) -> Tenant | None:
        return next((t for t in self.tenants if t.namespace == namespace), None)
