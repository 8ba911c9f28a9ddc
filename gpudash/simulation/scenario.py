"""Scenarios: small declarative cluster stories, resolved against a user's model.

A scenario file (``gpudash/render/golden/scenarios/*.yaml``) describes nodes, pods with a lifecycle and faults in
portable terms: GPU classes by requirement (``gpu: {vendor: nvidia, mig: true}`` = the first class with a MIG
model; ``gpu: {class: a100-80gb}``; ``gpu: {product: "NVIDIA Tesla T4"}`` = a product the model does not price),
tenants by index (``tenant: 0``) or a literal ``namespace``, MIG profiles by size (``1g`` = the smallest 1g
profile of the class) and requests by shorthand (``gpu`` = the node vendor's whole GPU, ``shared`` =
``nvidia.com/gpu.shared``, ``mig-1g`` = that profile, ``mig-1g.shared`` = its renamed time-sliced
replica). :func:`resolve` turns one into a :class:`Scenario`
with literal names, or returns the reason the model cannot run it. Times are whole minutes from 0.

Fault kinds: ``missed_scrapes`` (``job: ksm|dcgm``, ``at``, ``minutes``: no sample, bridged by the lookback),
``ksm_restart`` / ``exporter_gap`` (``at``, ``minutes``: the target is down, its series go stale),
``ksm_duplicate`` (an HA pair: every kube-state-metrics series twice, differing by ``instance``),
``mco_jitter`` (``offsets``: minutes after each push slot, cycled), ``mco_missed`` (``pushes``: push slot times
lost), ``mco_outage`` (``at``, ``minutes``, optional ``cluster`` index: every push slot in ``[at, at + minutes)``
is lost, of that cluster or of all: the hub, Thanos receive or the network is down), ``mco_rule_failed``
(``rules`` fail in the pushes of slots ``pushes``; the rest of each push arrives),
``mco_straddle`` (``rules`` of the pushes of slots ``pushes`` are evaluated a minute before the others) and
``spoke_restart`` (``at``: from then on the collector queries a Prometheus replica whose TSDB starts empty then),
``tier_missed`` (``at``, ``minutes``: the spoke tier's rule group did not run, e.g. its Prometheus restarted with
the TSDB kept; only with ``billing.spoke_tier: policy``), ``tier_rule_failed`` (``at``, ``minutes``, ``rules``:
those rules of the spoke tier, :data:`TIER_RULES`, fail with an error at those steps while the rest of the group
runs; only with the tier) and ``driver_reload`` (``at``, optional ``node``: the GPUs' energy counters restart
from 0).
Rules are named by kind: ``billed_hour``, ``steps``, ``gpu_hours``, ``node_max``, ``pod_alloc``, ``energy``.
A node with ``energy_counter: false`` exposes power but no energy counter (the spoke integrates its power).
``energy: true`` marks a scenario about energy metering: a model without an ``energy`` section skips it;
``backfill: true`` one about late hours: a model without ``billing.backfill_hours`` skips it.
"""
from __future__ import annotations

import bisect
import functools
import hashlib
import re
from dataclasses import dataclass, field, fields
from pathlib import Path

import yaml

from gpudash.model import vendors
from gpudash.model.types import GpuClass, Model

LOOKBACK = 5  # minutes: a sample answers instant queries while younger than this
PHASES = ("Pending", "Running", "Succeeded", "Failed", "Unknown")
FAULT_KINDS = ("missed_scrapes", "ksm_restart", "ksm_duplicate", "exporter_gap", "mco_jitter", "mco_missed",
               "mco_outage", "mco_rule_failed", "mco_straddle", "spoke_restart", "tier_missed", "tier_rule_failed",
               "driver_reload")
TIER_FAULTS = ("tier_missed", "tier_rule_failed")  # faults of the spoke tier: only with billing.spoke_tier: policy
PUSH_RULES = ("billed_hour", "steps", "gpu_hours", "node_max", "pod_alloc", "energy")
# The spoke tier's billed rules a tier_rule_failed fault names, and the step's figure (docs/billing-contract.md
# section 6) each one's failure loses: the active GPUs are recorded in two rules, the pods' GPU equivalents first.
TIER_RULES = {"allocated": "allocation", "pod_kinds": "active", "node_active": "active", "energy": "energy"}


def _lookback_tie(fault: Fault, model: Model) -> bool:
    """Whether a push at a multiple of ``billing.mco_interval`` falls exactly :data:`LOOKBACK` after the tier's
    last recorded step before the ``tier_missed`` ``fault`` and before its next one (steps in whole minutes)."""
    step, push = model.billing.resolution, model.billing.mco_interval
    if step % 60 or push % 60:
        return False  # no golden scenario runs then (gpudash.render.golden.emit)
    step, push = step // 60, push // 60
    last = -(-fault.at // step) * step - step
    after = -(-(fault.at + fault.minutes) // step) * step
    return (last + LOOKBACK) % push == 0 and last + LOOKBACK < after


def push_rules(model: Model) -> tuple[str, ...]:
    """The kinds of spoke rule a push of ``model``'s rules carries: energy only with an energy section."""
    return tuple(k for k in PUSH_RULES if k != "energy" or model.energy.metered)
OWNER_KINDS = ("Deployment", "StatefulSet", "Job", "bare")
# Extra hub assertions a scenario may ask for (gpudash.render.golden.emit): "labels" compares every hub series' full
# label set; "every_series" asserts every registered series by value. Budget thresholds are checked in every one.
CHECKS = ("labels", "every_series")


class Skip(Exception):
    """The model cannot run this scenario; ``str()`` is the reason."""


def fields_hash(obj) -> int:
    """A frozen dataclass's hash of its fields, computed once: the simulation's caches key on scenarios and nodes
    at every step, and the generated ``__hash__`` would re-hash every nested node, pod and event each time."""
    try:
        return obj.__dict__["_hash"]
    except KeyError:
        h = hash(tuple(getattr(obj, f.name) for f in fields(obj)))
        object.__setattr__(obj, "_hash", h)
        return h


@dataclass(frozen=True)
class Node:
    name: str
    cluster: str
    vendor: str
    product: str  # NVML / marketing name, as in the model (spaces allowed)
    gpu_class: GpuClass | None  # None: the product is not in the model (unpriced)
    count: int  # physical GPUs
    mig_strategy: str  # none | mixed | single
    mig_layout: tuple[tuple[str, int], ...]  # (profile, instances per GPU); single: one profile
    replicas: int  # time-slicing replicas per GPU (1 = none)
    rename_shared: bool  # time-slicing advertises nvidia.com/gpu.shared (else nvidia.com/gpu on <product>-SHARED)
    partition: str = ""  # AMD compute-memory partition of every GPU, e.g. cpx_nps4 ("" = whole GPUs)
    partitions_per_gpu: int = 1  # as the scenario states it (CPX on MI300X: 8)
    partition_strategy: str = "single"  # the AMD device plugin's naming: single (amd.com/gpu) | mixed (amd.com/<p>)
    energy_counter: bool = True  # the exporter serves the GPUs' energy counter (else power only)

    __hash__ = fields_hash


@dataclass(frozen=True)
class Container:
    name: str
    requests: tuple[tuple[str, int], ...]  # (Kubernetes resource, quantity), sorted
    sidecar: bool = False  # an init container with restartPolicy: Always (a native sidecar, KEP-753)


@dataclass(frozen=True)
class Event:
    at: int  # minute
    phase: str | None = None
    node: str | None = None  # binding; once set it stays
    deleted: bool = False
    restart: bool = False  # container restart: same uid, phase unchanged


@dataclass(frozen=True)
class Pod:
    name: str
    namespace: str
    uid: str
    cluster: str
    containers: tuple[Container, ...]
    init_containers: tuple[Container, ...]
    owner_kind: str  # Deployment | StatefulSet | Job | bare
    owner_name: str
    lifecycle: tuple[Event, ...]  # sorted by time; the first event creates the pod
    utilisation: tuple[tuple[int, float], ...]  # (minute, percent) steps

    def state(self, minute: int) -> tuple[bool, str, str]:
        """(exists, phase, node) at ``minute``: node is "" until bound."""
        exists, phase, node = False, "Pending", ""
        for e in self.lifecycle:
            if e.at > minute:
                break
            exists = not e.deleted
            phase = e.phase or phase
            node = e.node or node
        return exists, phase, node

    def effective(self) -> dict[str, int]:
        """The effective request per resource, as the scheduler accounts it and kubelet's device manager hands it
        out: max(max over regular init containers, sum over app containers and native sidecars). A sidecar runs
        beside the app containers (KEP-753), and a regular init container is taken to run before the sidecars
        start."""
        out: dict[str, int] = {}
        for c in self.visible_containers():
            for r, q in c.requests:
                out[r] = out.get(r, 0) + q
        for c in self.init_containers:
            if not c.sidecar:
                for r, q in c.requests:
                    out[r] = max(out.get(r, 0), q)
        return out

    def visible_containers(self) -> tuple[Container, ...]:
        """The containers the kubelet's pod-resources API lists (app containers, and native sidecars as kubelets
        with SidecarContainers list them): the only ones a GPU exporter attributes devices to. A regular init
        container's devices stay allocated to the pod (the device manager reuses them for the app containers and
        keeps the rest) but no exporter names them."""
        return (*self.containers, *(i for i in self.init_containers if i.sidecar))

    def utilisation_at(self, minute: int) -> float:
        value = 0.0
        for at, percent in self.utilisation:
            if at <= minute:
                value = percent
        restarting = any(e.restart and e.at == minute for e in self.lifecycle)
        return 0.0 if restarting else value


# The scenario format's name for the GPU exporters' scrapes (``missed_scrapes``' ``job: dcgm``, and the job whose
# scrapes ``exporter_gap`` takes down): every vendor's exporter shares these faults, whatever its ``source``.
EXPORTERS = "dcgm"


@dataclass(frozen=True)
class Fault:
    kind: str
    at: int = 0
    minutes: int = 0
    job: str = "ksm"  # missed_scrapes: ksm | dcgm (EXPORTERS: every GPU exporter)
    offsets: tuple[int, ...] = ()  # mco_jitter
    pushes: tuple[int, ...] = ()  # mco_missed, mco_rule_failed, mco_straddle: push slot times (minutes)
    rules: tuple[str, ...] = ()  # mco_rule_failed, mco_straddle: rule kinds (PUSH_RULES); tier_rule_failed: TIER_RULES
    node: str = ""  # driver_reload: the node whose GPUs reload ("" = every node)
    cluster: int = -1  # mco_outage: the cluster (index in the scenario) whose pushes are lost (-1 = every cluster)


@dataclass(frozen=True)
class Scenario:
    name: str
    protects: str
    duration: int  # minutes
    clusters: tuple[str, ...]
    nodes: tuple[Node, ...]
    pods: tuple[Pod, ...]
    faults: tuple[Fault, ...] = ()
    hub_only: bool = False  # month-scale: only the push path (pushed series in, hub rules) is tested
    checks: tuple[str, ...] = field(default=())  # extra checks named in the file, from CHECKS

    __hash__ = fields_hash

    def node(self, cluster: str, name: str) -> Node:
        by_name = self.__dict__.get("_nodes_by_name")
        if by_name is None:  # the first node of each name, as a scan would find it
            by_name = {}
            for n in self.nodes:
                by_name.setdefault((n.cluster, n.name), n)
            object.__setattr__(self, "_nodes_by_name", by_name)
        return by_name[(cluster, name)]

    def faults_of(self, kind: str) -> tuple[Fault, ...]:
        """The faults of ``kind`` (grouped once per scenario: the reference asks at every step)."""
        known = self.__dict__.get("_faults_by_kind")
        if known is None:
            known = {}
            for f in self.faults:
                known.setdefault(f.kind, []).append(f)
            known = {k: tuple(v) for k, v in known.items()}
            object.__setattr__(self, "_faults_by_kind", known)
        return known.get(kind, ())

    def state_epoch(self, minute: int) -> int:
        """How many distinct minutes of pod lifecycle events are at or before ``minute``: every pod's
        :meth:`Pod.state` is the same at two minutes of the same epoch (computed once per scenario)."""
        changes = self.__dict__.get("_state_changes")
        if changes is None:
            changes = sorted({e.at for pod in self.pods for e in pod.lifecycle})
            object.__setattr__(self, "_state_changes", changes)
        return bisect.bisect_right(changes, minute)

    def scrape_outcomes(self, job: str) -> tuple[str, ...]:
        """Per minute 0..duration, how ``job`` ("ksm", or :data:`EXPORTERS` for every GPU exporter) was scraped:
        "ok", "missed" (a ``missed_scrapes`` fault: nothing stored) or "down" (``ksm_restart`` / ``exporter_gap``:
        the target is down, so its series go stale). Computed once per scenario and job (the reference asks at
        every minute of a month)."""
        known = self.__dict__.setdefault("_outcomes", {})
        if job not in known:
            down = "ksm_restart" if job == "ksm" else "exporter_gap"
            out = ["ok"] * (self.duration + 1)
            for f in self.faults:
                if f.kind == down or (f.kind == "missed_scrapes" and f.job == job):
                    for m in range(f.at, min(f.at + f.minutes, len(out))):
                        out[m] = "down" if f.kind == down else "missed"
            known[job] = tuple(out)
        return known[job]


def minutes(value) -> int:
    """``90m``, ``3h``, ``1h30m``, ``31d`` or a number of minutes -> whole minutes."""
    if isinstance(value, int):
        return value
    parts = re.fullmatch(r"(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?", str(value).strip())
    if not parts or not any(parts.groups()):
        raise ValueError(f"bad duration {value!r} (use e.g. 90m, 3h, 1h30m, 31d)")
    d, h, m = (int(g or 0) for g in parts.groups())
    return (d * 24 + h) * 60 + m


# a scenario's name: it names its test files (gpudash.base.layout), so no kind's suffix ends it
NAME = re.compile(r"(?![a-z0-9-]*-(?:tier|hub|settled)$)[a-z0-9][a-z0-9-]*")


def load_files(directory: Path) -> list[dict]:
    """Every scenario file of ``directory`` as raw data, sorted by name (read by libyaml where PyYAML has it: the
    same data as the pure-Python safe loader's, seven times faster; every render reads them before it emits)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    raws = [yaml.load(p.read_text(), Loader=loader) for p in sorted(directory.glob("*.yaml"))]
    return sorted(raws, key=lambda r: r["name"])


def load(model: Model, directory: Path) -> tuple[list[Scenario], dict[str, str]]:
    """The scenarios ``model`` can run, and {scenario name: reason} for those it cannot."""
    runnable, skipped = [], {}
    for raw in load_files(directory):
        if not isinstance(raw.get("name"), str) or not NAME.fullmatch(raw["name"]):
            raise ValueError(f"scenario {raw.get('name')!r}: a name is lower-case letters, digits and dashes, not "
                             "ending in -tier, -hub or -settled (it names its test files)")
        try:
            runnable.append(resolve(raw, model))
        except Skip as why:
            skipped[raw["name"]] = str(why)
    return runnable, skipped


def resolve(raw: dict, model: Model) -> Scenario:
    """Bind a raw scenario to ``model`` (classes, tenants, cluster names); raises :class:`Skip`."""
    for required in ("name", "protects", "duration", "pods"):
        if required not in raw:
            raise ValueError(f"scenario {raw.get('name', '?')}: missing {required!r}")
    n_clusters = raw.get("clusters", 1)
    if n_clusters > max(1, len(model.clusters)):
        raise Skip(f"needs {n_clusters} clusters, the model has {len(model.clusters)}")
    clusters = tuple(model.clusters[:n_clusters]) or ("local-cluster",)
    nodes = tuple(_node(n, model, clusters) for n in raw.get("nodes", ()))
    by_name = {(n.cluster, n.name): n for n in nodes}
    pods = []
    seen: dict[tuple, int] = {}  # pods of each key so far
    for p in raw["pods"]:
        key = (p.get("cluster", 0), p.get("namespace"), p.get("tenant"), p["name"])
        seen[key] = seen.get(key, 0) + 1
        pods.append(_pod(p, model, by_name, clusters, seen[key]))
    faults = tuple(_fault(f) for f in raw.get("faults", ()))
    unknown = sorted(set(raw.get("checks", ())) - set(CHECKS))
    if unknown:
        raise ValueError(f"scenario {raw['name']}: unknown checks {unknown} (known: {', '.join(CHECKS)})")
    if any(f.kind in TIER_FAULTS for f in faults) and not model.billing.tier:
        raise Skip("protects the spoke tier: needs billing.spoke_tier: policy")
    if any(_lookback_tie(f, model) for f in faults if f.kind == "tier_missed"):
        raise Skip(f"at this billing.mco_interval a push reads the tier's last step before the missed run exactly "
                   f"{LOOKBACK} minutes old, where Prometheus 2 (closed lookback) and 3 (left-open) answer differently")
    if raw.get("energy") and not model.energy.metered:  # a scenario about energy metering
        raise Skip("protects energy metering: needs an energy section in the model")
    if raw.get("backfill") and not model.billing.backfill_hours:  # a scenario about late hours
        raise Skip("protects late hours: needs billing.backfill_hours (with billing.spoke_tier: policy)")
    return Scenario(raw["name"], raw["protects"].strip(), minutes(raw["duration"]), clusters, nodes, tuple(pods),
                    faults, bool(raw.get("hub_only", False)), tuple(raw.get("checks", ())))


@functools.cache
def uid_of(*parts) -> str:
    """A stable UUID-shaped identifier (cached: the push path asks for each cluster's at every sample)."""
    h = hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def _gpu_class(req: dict, model: Model) -> tuple[GpuClass | None, str, str]:
    """(class, vendor, product) for a node's ``gpu`` requirement."""
    if "product" in req:
        product = req["product"]
        if any(product in c.products for c in model.gpu_classes):
            raise Skip(f"product {product!r} is priced by this model")
        return None, req.get("vendor", _default_vendor().name), product
    if "class" in req:
        found = [c for c in model.gpu_classes if c.name == req["class"]]
        if not found:
            raise Skip(f"no GPU class {req['class']!r}")
        c = found[0]
        return c, c.vendor, c.products[0]
    for c in model.gpu_classes:
        if (req.get("vendor", c.vendor) == c.vendor and (not req.get("mig") or c.mig_model)
                and (not req.get("time_slicing") or c.time_slicing_replicas > 1)):
            return c, c.vendor, c.products[0]
    raise Skip(f"no GPU class matches {req}")


def _profile(size: str, c: GpuClass | None) -> str:
    """A MIG profile by size (``1g``: the smallest-memory 1g profile) or full name, checked against the class."""
    if c is None or not c.mig_model:
        raise Skip(f"MIG profile {size!r} needs a class with a MIG model")
    names = [p.name for p in c.mig]
    if size in names:
        return size
    sized = [p for p in c.mig if p.name.startswith(f"{size}.")]
    if not sized:
        raise Skip(f"class {c.name} has no MIG profile {size!r}")
    return min(sized, key=lambda p: p.memory_slices).name


def _node(raw: dict, model: Model, clusters: tuple[str, ...]) -> Node:
    c, vendor, product = _gpu_class(raw.get("gpu", {}), model)
    m = raw.get("mig") or {}
    strategy = m.get("strategy", "none")
    layout = tuple(sorted((_profile(k, c), v) for k, v in (m.get("layout") or {}).items()))
    if strategy == "single":
        layout = ((_profile(m["profile"], c), m.get("instances", 7)),)
    ts = raw.get("time_slicing") or {}
    replicas = c.time_slicing_replicas if ts and c else 1
    if ts and replicas < 2:
        raise Skip("time-slicing needs a class with time_slicing replicas")
    part = raw.get("partition") or {}
    if part and not vendors.vendor(vendor).partitions:
        raise ValueError(f"node {raw['name']}: vendor {vendor} has no compute partitions")
    return Node(raw["name"], clusters[raw.get("cluster", 0)], vendor, product, c, raw.get("count", 1), strategy,
                layout, replicas, bool(ts.get("rename", True)), part.get("name", ""), part.get("per_gpu", 1),
                part.get("strategy", "single"), bool(raw.get("energy_counter", True)))


def _default_vendor() -> vendors.Vendor:
    """A scenario node's vendor when neither it nor its class names one: the first registered (NVIDIA)."""
    return next(iter(vendors.VENDORS.values()))


def _resource(key: str, node: Node | None) -> str:
    """A literal Kubernetes resource name for a request key (shorthands resolved on the pod's node)."""
    v = vendors.vendor(node.vendor) if node else _default_vendor()
    if key == "gpu":
        return v.resource
    if key == "shared":
        return f"{v.resource}.shared"
    if key == "partition":  # the mixed strategy's partition resource of the node
        return f"{v.domain}/{node.partition}" if node else key
    if key.startswith("mig-"):  # mig-1g, or mig-1g.shared: the slice renamed by time-slicing
        size, shared = key[4:].removesuffix(".shared"), key.endswith(".shared")
        return f"{v.mig_resource_prefix}{_profile(size, node.gpu_class if node else None)}{'.shared' * shared}"
    return key


def _containers(raws, node: Node | None, prefix: str) -> tuple[Container, ...]:
    out = []
    for i, raw in enumerate(raws or ()):
        reqs = tuple(sorted((_resource(k, node), int(v)) for k, v in (raw.get("requests") or {}).items()))
        out.append(Container(raw.get("name", f"{prefix}{i}"), reqs, raw.get("restart_policy") == "Always"))
    return tuple(out)


def _pod(raw: dict, model: Model, nodes: dict[tuple, Node], clusters: tuple[str, ...], occurrence: int) -> Pod:
    if "tenant" in raw:
        if raw["tenant"] >= len(model.tenants):
            raise Skip(f"needs {raw['tenant'] + 1} tenants, the model has {len(model.tenants)}")
        namespace = model.tenants[raw["tenant"]].namespace
    else:
        namespace = raw["namespace"]
    events = []
    for e in raw["lifecycle"]:
        phase = e.get("phase")
        if phase is not None and phase not in PHASES:
            raise ValueError(f"pod {raw['name']}: unknown phase {phase!r}")
        node = e.get("node", raw.get("node") if phase == "Running" else None)
        events.append(Event(minutes(e["at"]), phase, node, bool(e.get("deleted")), bool(e.get("restart"))))
    events.sort(key=lambda e: e.at)
    cluster = clusters[raw.get("cluster", 0)]
    bound = next((nodes[(cluster, e.node)] for e in events if e.node), nodes.get((cluster, raw.get("node"))))
    util = raw.get("utilisation", 50)
    steps = ((0, float(util)),) if not isinstance(util, list) else tuple(
        (minutes(u["at"]), float(u["percent"])) for u in util)
    owner = raw.get("owner") or {"kind": "bare"}
    if owner["kind"] not in OWNER_KINDS:
        raise ValueError(f"pod {raw['name']}: owner kind must be one of {OWNER_KINDS}")
    return Pod(raw["name"], namespace, raw.get("uid", uid_of(cluster, namespace, raw["name"], occurrence)),
               cluster, _containers(raw.get("containers"), bound, "c"),
               _containers(raw.get("init_containers"), bound, "init"), owner["kind"], owner.get("name", raw["name"]),
               tuple(events), steps)


def _fault(raw: dict) -> Fault:
    if raw["kind"] not in FAULT_KINDS:
        raise ValueError(f"unknown fault kind {raw['kind']!r} (one of {FAULT_KINDS})")
    rules = tuple(raw.get("rules", ()))
    known = tuple(TIER_RULES) if raw["kind"] == "tier_rule_failed" else PUSH_RULES
    if any(r not in known for r in rules):
        raise ValueError(f"fault {raw['kind']}: rules must be among {known}, got {list(rules)}")
    return Fault(raw["kind"], minutes(raw.get("at", 0)), minutes(raw.get("minutes", 0)), raw.get("job", "ksm"),
                 tuple(minutes(o) for o in raw.get("offsets", ())), tuple(minutes(p) for p in raw.get("pushes", ())),
                 rules, raw.get("node", ""), raw.get("cluster", -1))
