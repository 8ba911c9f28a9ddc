"""Series synthesiser: a scenario -> the series a real cluster exposes, in promtool ``input_series`` notation.

One sample per minute from 0 to the scenario's duration. Each minute, every target exposes a set of series (its
"exposition"); a scrape stores them. A series missing from a scrape that the previous scrape had gets a
``stale`` marker (pod deleted, label change), as does every series of a target that goes down (KSM restart,
exporter gap) at its first failed scrape; a missed scrape stores nothing (``_``). The spoke tier's recorded
series follow from the reference model. :mod:`~gpudash.simulation.pushes` gives the hub's view instead: what the
ACM metrics-collector pushes at each (jittered, possibly lost) push time.
"""
from __future__ import annotations

from collections.abc import Sequence

from gpudash.model import series as names
from gpudash.model import vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.types import Exporter, Model
from gpudash.model.vendors import Vendor
from gpudash.simulation.devices import (
    MIG_GPU_WATTS,
    assignments,
    devices,
    energy_counter,
    holder_index,
    power_changes,
    power_watts,
    shown_holder,
)
from gpudash.simulation.notation import Labels, by_name, notation
from gpudash.simulation.reference import Reference, ksm, label_value, node_product
from gpudash.simulation.scenario import EXPORTERS, LOOKBACK, Node, Pod, Scenario
from gpudash.simulation.scenario import uid_of as uid

KSM_INSTANCES = ("10.128.0.11:8443", "10.129.0.12:8443")  # an HA pair's targets (ksm_duplicate: both scraped)


def scrape(expositions: list[dict[Labels, float]], outcomes: Sequence[str]) -> dict[Labels, list]:
    """Store per-minute expositions the way Prometheus scrapes them (outcome per minute: ok | missed | down)."""
    keys = sorted(set().union(*expositions))  # every series any minute exposes (one C pass)
    out: dict[Labels, list[float | str | None]] = {k: [None] * len(expositions) for k in keys}
    last: dict[Labels, float] = {}  # what the previous completed scrape stored
    for m, (exposed, outcome) in enumerate(zip(expositions, outcomes)):
        if outcome == "missed":
            continue
        now = exposed if outcome == "ok" else {}
        for k in last.keys() - now.keys():
            out[k][m] = "stale"
        for k, v in now.items():
            out[k][m] = v
        last = now
    return out


# --- kube-state-metrics --------------------------------------------------------------------------------------
def _owner(pod: Pod) -> tuple[str, str, str]:
    if pod.owner_kind == "Deployment":
        return "ReplicaSet", f"{pod.owner_name}-{uid(pod.namespace, pod.owner_name)[:10]}", "true"
    if pod.owner_kind == "bare":
        return "<none>", "<none>", "<none>"
    return pod.owner_kind, pod.owner_name, "true"


def _single_resource(node: Node) -> str:
    v = vendors.vendor(node.vendor)
    return ksm(f"{v.resource}.shared" if node.replicas > 1 and node.rename_shared else v.resource)


def _node_labels(node: Node, model: Model) -> tuple[tuple[str, str], ...]:
    """The node's labels from its vendor's node labeller as kube_node_labels shows them: the product (and the
    partition, for a vendor with partitions), and under MIG with time-slicing the ``<resource>.replicas`` and
    ``<resource>.product`` labels of NVIDIA/k8s-device-plugin internal/lm/resource.go (``-SHARED`` on the slice's
    product unless renamed)."""
    v = vendors.vendor(node.vendor)
    src = model.sources
    if not v.attributes_fractions:  # the product and, partitioned, the compute-memory partition
        label = v.partition_label(src)
        part = ((label, node.partition),) if node.partition and label else ()
        return ((v.product_label(src), node_product(node)), *part)
    out = {v.product_label(src): node_product(node)}
    if node.mig_strategy != "mixed" and node.replicas > 1:
        out[f"label_{ksm(v.resource)}_replicas"] = str(node.replicas)
    if node.mig_strategy == "mixed" and node.replicas > 1:
        gpu = label_value(node.vendor, node.product)
        shared = "" if node.rename_shared else "-SHARED"
        for p, _ in node.mig_layout:
            out[f"label_{ksm(f'{v.mig_resource_prefix}{p}')}_replicas"] = str(node.replicas)
            out[f"label_{ksm(f'{v.mig_resource_prefix}{p}')}_product"] = f"{gpu}-MIG-{p}{shared}"
    return tuple(sorted(out.items()))


def _node_resources(node: Node) -> dict[str, int]:
    v = vendors.vendor(node.vendor)
    if node.partition and node.partition_strategy == "mixed":
        # ROCm/k8s-device-plugin docs/user-guide/configuration.md "Resource Naming Strategy"
        return {ksm(f"{v.domain}/{node.partition}"): node.count * node.partitions_per_gpu}
    if node.mig_strategy == "mixed":
        suffix = ".shared" if node.replicas > 1 and node.rename_shared else ""
        return {ksm(f"{v.mig_resource_prefix}{p}{suffix}"): n * node.count * node.replicas for p, n in node.mig_layout}
    if node.mig_strategy == "single":
        return {_single_resource(node): node.mig_layout[0][1] * node.count * node.replicas}
    return {_single_resource(node): node.count * node.replicas * node.partitions_per_gpu}


def _ksm_expositions(scenario: Scenario, model: Model, cluster: str) -> list[dict[Labels, float]]:
    """What kube-state-metrics exposes at each minute (:func:`_ksm_exposition`), every series twice, once per
    instance, under ``ksm_duplicate``: one object per :meth:`Scenario.state_epoch` (every pod in the same state,
    the same exposition)."""
    twice = scenario.faults_of("ksm_duplicate")
    by_epoch: dict[int, dict[Labels, float]] = {}
    out = []
    for m in range(scenario.duration + 1):
        epoch = scenario.state_epoch(m)
        if epoch not in by_epoch:
            exposed = _ksm_exposition(scenario, model, cluster, m)
            by_epoch[epoch] = {(*k, ("instance", i)): v for k, v in exposed.items() for i in KSM_INSTANCES} \
                if twice else exposed
        out.append(by_epoch[epoch])
    return out


def _ksm_exposition(scenario: Scenario, model: Model, cluster: str, minute: int) -> dict[Labels, float]:
    job = ("job", model.sources.kube_state_metrics_job)
    out: dict[Labels, float] = {}
    for node in scenario.nodes:
        if node.cluster != cluster:
            continue
        out[(("__name__", "kube_node_labels"), job, ("node", node.name), *_node_labels(node, model))] = 1
        for res, n in _node_resources(node).items():
            for metric in ("kube_node_status_allocatable", "kube_node_status_capacity"):
                out[(("__name__", metric), job, ("node", node.name), ("resource", res), ("unit", "integer"))] = n
    deployments = set()
    for pod in scenario.pods:
        exists, phase, on = pod.state(minute)
        if pod.cluster != cluster or not exists:
            continue
        ident = (job, ("namespace", pod.namespace), ("pod", pod.name), ("uid", pod.uid))
        for metric, containers in (("kube_pod_container_resource_requests", pod.containers),
                                   ("kube_pod_init_container_resource_requests", pod.init_containers)):
            for c in containers:
                for res, q in c.requests:
                    out[(("__name__", metric), *ident, ("container", c.name), ("node", on),
                         ("resource", ksm(res)), ("unit", "integer"))] = q
        for c in pod.init_containers:  # kube-state-metrics labels restart_policy only when it is set
            policy = (("restart_policy", "Always"),) if c.sidecar else ()
            out[(("__name__", "kube_pod_init_container_info"), *ident, ("container", c.name), *policy)] = 1
        for p in ("Pending", "Running", "Succeeded", "Failed", "Unknown"):
            out[(("__name__", "kube_pod_status_phase"), *ident, ("phase", p))] = int(p == phase)
        kind, name, controller = _owner(pod)
        out[(("__name__", "kube_pod_owner"), *ident, ("owner_kind", kind), ("owner_name", name),
             ("owner_is_controller", controller))] = 1
        if pod.owner_kind == "Deployment":
            deployments.add((pod.namespace, name, pod.owner_name))
    for ns, rs, deploy in deployments:
        out[(("__name__", "kube_replicaset_owner"), job, ("namespace", ns), ("replicaset", rs),
             ("owner_kind", "Deployment"), ("owner_name", deploy), ("owner_is_controller", "true"))] = 1
    return out


# --- GPU exporters -------------------------------------------------------------------------------------------
# The exporter pods' own namespace, container and pod name prefix, which Kubernetes service discovery gives each
# scrape target (prometheus-operator's ServiceMonitor relabelling writes namespace, pod and container target labels):
# each vendor's ``exporter_pod``. One exporter pod per node.


def exporter_target(vendor: Vendor, host: str) -> dict[str, str]:
    """The target labels of ``vendor``'s exporter pod on node ``host``."""
    namespace, container, prefix = vendor.exporter_pod
    return {"namespace": namespace, "pod": f"{prefix}-{uid(host)[:5]}", "container": container}


def scraped(exposed: Labels, target: dict[str, str], honor: bool) -> Labels:
    """The labels Prometheus stores for an exposed sample of a target with ``target`` labels (prometheus/prometheus
    scrape/scrape.go mutateSampleLabels, the same in 2.42 and 3.5.3, checked against both): with honor_labels a
    target label is added only where the sample has no label of that name, and a label exposed empty *counts as
    present* (so the AMD exporter's pod="" on an idle GPU keeps the exporter's pod out) before every empty label
    is dropped (model/labels Builder); without it every target label is set and an exposed non-empty one is kept as
    ``exported_<name>``."""
    d = dict(exposed)
    for name, value in target.items():
        if not honor:
            if d.get(name):
                d[f"exported_{name}"] = d[name]
            d[name] = value
        elif name not in d:
            d[name] = value
    return tuple((k, v) for k, v in d.items() if v != "")


def honours(exporter: Exporter) -> bool:
    """Whether the exporter is scraped with honorLabels (its pod labels stored as plain namespace/pod)."""
    return exporter.tenant_label == "namespace"


def host_label(vendor: Vendor, index: int) -> str:
    """The host label of the ``index``-th node's series: where an exporter has several names for it (dcgm-exporter's
    old and new), alternately, so that the rules are checked against each."""
    return vendor.host_labels[index % len(vendor.host_labels)]


def exporter_exposed(scenario: Scenario, model: Model, cluster: str, minute: int, held) -> dict[Labels, float]:
    """The GPU exporters' samples at ``minute`` as they expose them (``job`` and ``gpudash_vendor`` included, no
    target labels), each from its vendor's module: the activity series (the first only for a MIG instance), the
    attribution series (a memory figure) and the power where the vendor's exporter serves them. Pod labels are
    absent on a GPU no pod holds, or exposed empty where the vendor's exporter does so (``idle_pod_labels_empty``):
    dcgm-exporter writes pod/namespace/container only on a device the pod-resources API lists a pod for
    (NVIDIA/dcgm-exporter internal/pkg/transformation/kubernetes.go); the AMD exporter writes them on every GPU,
    empty where no workload holds it (ROCm/device-metrics-exporter pkg/amdgpu/gpuagent/gpuagent_gpu_metrics.go,
    gpuMandatoryLables)."""
    src = model.sources
    out: dict[Labels, float] = {}
    holders = holder_index(held)
    for index, node in enumerate(scenario.nodes):
        if node.cluster != cluster:
            continue
        v = vendors.vendor(node.vendor)
        job = ("job", gx.sample_job(gx.exporter(src, v)))
        host = (host_label(v, index), node.name)
        units = (sorted({d[:3] for d in devices(node)}, key=str) if node.mig_strategy != "none"
                 else [(g, None, 0) for g in range(node.count)])
        for g, profile, instance in units:
            holder = shown_holder(holders, node, g, profile, instance)
            util = holder[0].utilisation_at(minute) if holder else 0.0
            pod = [("namespace", holder[0].namespace), ("pod", holder[0].name), ("container", holder[1])] \
                if holder else [("namespace", ""), ("pod", ""), ("container", "")] if v.idle_pod_labels_empty else []
            key: tuple[tuple[str, str], ...] = (job, *v.gpu_identity(g, uid(node.name, str(g))),
                                                (v.model_label, node.product), host)
            if profile and v.mig_labels:
                key += ((v.mig_labels[0], profile), (v.mig_labels[1], str(instance)))
            key += tuple(pod)
            for metric, full in v.activity[:1] if profile else v.activity:
                out[(("__name__", v.metric(src, metric)), *key)] = v.activity_value(util, full)
            if v.attribution not in dict(v.activity):
                out[(("__name__", v.metric(src, v.attribution)), *key)] = 1024 + 100 * util if holder else 0
            if node.mig_strategy == "none" and v.sample_power:
                out[(("__name__", v.metric(src, v.power)), *key)] = power_watts(util)
        if node.mig_strategy != "none" and v.sample_power:  # a MIG GPU's power is the device's, no pod's
            for g in range(node.count):
                out[(("__name__", v.metric(src, v.power)), job, *v.gpu_identity(g, uid(node.name, str(g))),
                     (v.model_label, node.product), host)] = MIG_GPU_WATTS
    return out


def vendor_of(exposed: Labels, model: Model) -> Vendor:
    """The vendor whose exporter serves an exposed sample: the one with a series of its name."""
    name = dict(exposed)["__name__"]
    return next(v for v in vendors.VENDORS.values() if name in {v.metric(model.sources, m) for m in series_names(v)})


def series_names(v: Vendor) -> set[str]:
    """Every series name (before the prefix) of ``v``'s exporter that gpudash reads or the mock serves."""
    return {*(m for m, _ in v.activity), v.power, v.energy, v.attribution, *(m for m in (v.memory_used,
                                                                                          v.error_metric) if m)}


def exporter_stored(exposed: Labels, model: Model) -> Labels:
    """An exposed GPU exporter sample's labels as Prometheus stores them (:func:`scraped` with the target labels
    of the exporter pod on its node and the model's honorLabels)."""
    v = vendor_of(exposed, model)
    d = dict(exposed)
    host = next((d[label] for label in v.host_labels if d.get(label)), "")
    return scraped(exposed, exporter_target(v, host), honours(gx.exporter(model.sources, v)))


def _exporter_exposition(scenario: Scenario, model: Model, cluster: str, minute: int, held,
                         stored: dict[Labels, Labels]) -> dict[Labels, float]:
    """:func:`exporter_exposed` as stored (:func:`exporter_stored`); ``stored`` remembers each series' stored
    labels across the minutes of one synthesis."""
    out = {}
    for k, v in exporter_exposed(scenario, model, cluster, minute, held).items():
        labels = stored.get(k)
        if labels is None:
            labels = stored[k] = exporter_stored(k, model)
        out[labels] = v
    return out


def counter_series(model: Model, index: int, node: Node, gpu: int) -> tuple[Labels, float]:
    """(exposed labels, joules per unit) of the energy counter of physical GPU ``gpu`` of ``node`` (the ``index``-th
    node of its scenario, which picks the host label as :func:`exporter_exposed` does), in its vendor's unit (DCGM's
    millijoules, AMD's microjoules), with the pod labels exposed empty where the vendor's exporter does so and
    absent otherwise (held GPUs' series carry them in a real exporter; the rules fold a GPU's series)."""
    src = model.sources
    v = vendors.vendor(node.vendor)
    gpu_labels = tuple(kv for kv in v.gpu_identity(gpu, uid(node.name, str(gpu))) if kv[0] in v.gpu_labels)
    labels = (("__name__", v.metric(src, v.energy)), ("job", gx.sample_job(gx.exporter(src, v))), *gpu_labels,
              (host_label(v, index), node.name))
    if v.idle_pod_labels_empty:
        labels += (("namespace", ""), ("pod", ""), ("container", ""))
    return labels, v.energy_joules


def _energy_counters(scenario: Scenario, model: Model, cluster: str) -> dict[Labels, list]:
    """Each physical GPU's energy counter (:func:`counter_series`), per minute as scraped (none on nodes with
    ``energy_counter: false``)."""
    out = {}
    for index, node in enumerate(scenario.nodes):
        if node.cluster != cluster or not node.energy_counter:
            continue
        for g in range(node.count):
            labels, scale = counter_series(model, index, node, g)
            out[exporter_stored(labels, model)] = [round(v / scale) for v in energy_counter(scenario, node, g)]
    return out


def _ksm_up(scenario: Scenario, model: Model) -> dict[Labels, list]:
    """Prometheus' own ``up`` of each kube-state-metrics target: 1 per successful scrape, 0 per failed one, no
    sample for a scrape that did not happen."""
    value = {"ok": 1, "down": 0, "missed": None}
    samples = [value[o] for o in scenario.scrape_outcomes("ksm")]
    instances = KSM_INSTANCES if scenario.faults_of("ksm_duplicate") else KSM_INSTANCES[:1]
    return {(("__name__", "up"), ("instance", i), ("job", model.sources.kube_state_metrics_job)): samples
            for i in instances}


def synthesise(scenario: Scenario, model: Model, cluster: str) -> list[dict[str, str]]:
    """promtool ``input_series`` of one cluster of the scenario (1m interval, minutes 0..duration)."""
    return input_series(synthesised(scenario, model, cluster))


def input_series(named: list[tuple[str, list]], until: int | None = None) -> list[dict[str, str]]:
    """promtool ``input_series`` of (series, per-minute samples), up to minute ``until`` (None: all): a test that
    checks nothing later needs no later sample (promtool loads each step's samples as it reaches it,
    prometheus/prometheus cmd/promtool/unittest.go ``WithSamplesTill``), and each one costs every later step."""
    end = None if until is None else until + 1
    return [{"series": name, "values": notation(v[:end])} for name, v in named]


def synthesised(scenario: Scenario, model: Model, cluster: str) -> list[tuple[str, list]]:
    """(series, per-minute samples: a number, None where no scrape stored one, "stale") of one cluster of the
    scenario, minutes 0..duration."""
    minutes = range(scenario.duration + 1)
    ksm_exp = _ksm_expositions(scenario, model, cluster)
    held, changes = assignments(scenario), {0, *power_changes(scenario)}
    stored_labels: dict[Labels, Labels] = {}
    gpu_exp: list[dict[Labels, float]] = []
    for m in minutes:  # the same exposition while the devices held and the pods' utilisation stay the same
        if m in changes:
            exposed = _exporter_exposition(scenario, model, cluster, m, held[m], stored_labels)
        gpu_exp.append(dict(exposed))  # (each minute's own: its counters are added below)
    counters = _energy_counters(scenario, model, cluster)
    for m, exposed in enumerate(gpu_exp):
        exposed.update({k: v[m] for k, v in counters.items()})
    stored = {**scrape(ksm_exp, scenario.scrape_outcomes("ksm")),
              **scrape(gpu_exp, scenario.scrape_outcomes(EXPORTERS)), **_ksm_up(scenario, model)}
    return by_name(stored)


# --- the spoke tier ------------------------------------------------------------------------------------------
def tier_recorded(ref: Reference) -> list[dict[str, str]]:
    """promtool ``input_series`` of what the spoke tier recorded on the (one) cluster of ``ref``, from the
    reference model: a sample per recorded step (none at a missed one, nor of a figure whose rule failed there, nor
    the heartbeat then), keys without ``cluster`` (the spoke file has none). Used where the tier's own rules cannot
    run as the scenario says (promtool evaluates every group at every step, so it cannot miss an evaluation, and
    stops at a rule's error)."""
    samples: dict[Labels, list] = {}
    made: dict[tuple, list] = {}  # (name, key): its samples in ``samples``, each list made once

    def put(name: str, key: tuple, labels: tuple[str, ...], minute: int, value: float | str) -> None:
        series = made.get((name, key))
        if series is None:
            series = made[(name, key)] = samples.setdefault((("__name__", name), *zip(labels, key)),
                                                            [None] * (ref.s.duration + 1))
        series[minute] = value

    per_product = tuple(label for label in names.labels(names.TIER_ALLOCATED) if label != "cluster")
    per_node = tuple(label for label in names.labels(names.TIER_NODE_ACTIVE) if label != "cluster")
    per_pod = local_key(names.TIER_POD_ALLOCATED)
    for m in range(0, ref.s.duration + 1, ref.step):
        if not ref.tier_recorded(m):
            continue
        for (_, *key), units in ref.pod_allocation(m).items():
            put(names.TIER_POD_ALLOCATED, tuple(key), per_pod, m, units)
        for staled in _tier_staled(ref, m):
            put(names.TIER_POD_ALLOCATED, staled[1:], per_pod, m, "stale")
        for (_, *key), units in (ref.product_lines(m) if ref.tier_has(m, "allocation") else {}).items():
            put(names.TIER_ALLOCATED, tuple(key), per_product, m, units)
        for (_, *key), gpus in (ref.active_gpus(m) if ref.tier_has(m, "active") else {}).items():
            put(names.TIER_NODE_ACTIVE, tuple(key), per_node, m, gpus)
        if ref.ksm_up(m) and ref.tier_observed(m):
            put(names.TIER_KSM_UP, (), (), m, 1)
        metered = ref.model.energy.metered and ref.tier_has(m, "energy")
        for (_, ns), joules in (ref.step_energy(m) if metered else {}).items():
            put(names.TIER_ENERGY, (ns,) if ns else (), ("namespace",) if ns else (), m, joules)
    return [{"series": name, "values": notation(v)} for name, v in by_name(samples)]


def _tier_staled(ref: Reference, minute: int, since: int = 0) -> set[tuple]:
    """The per-pod rows the tier's rule manager marks stale at the recorded step ``minute``: those of the step
    before that are gone now. It remembers only its own previous evaluation (prometheus/prometheus rules/group.go,
    ``seriesInPreviousEval``), so after missed steps (a restart) or before ``since`` it marks nothing."""
    before = minute - ref.step
    if before < since or not ref.tier_recorded(before):
        return set()
    return set(ref.pod_allocation(before)) - set(ref.pod_allocation(minute))


def tier_pod_allocation(ref: Reference, minute: int, since: int = 0) -> dict[tuple, float]:
    """POD_ALLOCATED with the spoke tier, an instant query at ``minute`` of the tier's per-pod series: each row's
    newest recorded step within the lookback, unless a staleness marker came after it (:func:`_tier_staled`)."""
    out: dict[tuple, float] = {}
    staled: set[tuple] = set()
    first = minute - minute % ref.step
    for m in range(first, max(since, minute - LOOKBACK) - 1, -ref.step):
        if not ref.tier_recorded(m):
            continue
        rows = {k: v for k, v in ref.pod_allocation(m).items() if k not in out and k not in staled}
        if m == minute - LOOKBACK:  # Prometheus 2's lookback holds this step, 3's does not
            if rows:
                raise ValueError(f"scenario {ref.s.name}: the tier's step {m} is exactly one lookback before {minute}")
            break
        out.update(rows)
        staled |= _tier_staled(ref, m, since)
    return out


def local_key(series: str) -> tuple[str, ...]:
    """The registry's identifying labels of ``series`` without ``cluster``: how the reference model keys a row
    after its cluster, and a row's labels in a spoke test file (which has no cluster label)."""
    return tuple(label for label in names.key(series) if label != "cluster")
