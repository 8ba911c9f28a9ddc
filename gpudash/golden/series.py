"""Series synthesiser: a scenario -> the series a real cluster exposes, in promtool ``input_series`` notation.

One sample per minute from 0 to the scenario's duration. Each minute, every target exposes a set of series (its
"exposition"); a scrape stores them. A series missing from a scrape that the previous scrape had gets a
``stale`` marker (pod deleted, label change), as does every series of a target that goes down (KSM restart,
exporter gap) at its first failed scrape; a missed scrape stores nothing (``_``). :func:`pushed` gives the
hub's view instead: what the ACM metrics-collector pushes at each (jittered, possibly lost) push time.
"""
from __future__ import annotations

import functools

from gpudash.golden.reference import Reference, ksm, node_product
from gpudash.golden.scenario import Node, Pod, Scenario
from gpudash.golden.scenario import uid_of as uid
from gpudash.model.types import Exporter, Model
from gpudash.rules import names
from gpudash.sources import gpu_exporters as gx

Labels = tuple[tuple[str, str], ...]  # (name, value) pairs; the metric name is the "__name__" pair


def series_name(labels: Labels) -> str:
    """``name{a="b",...}`` with labels sorted and values escaped."""
    d = dict(labels)
    name = d.pop("__name__", "")
    body = ",".join(f'{k}="{_escape(v)}"' for k, v in sorted(d.items()))
    return f"{name}{{{body}}}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def notation(samples: list) -> str:
    """Per-interval samples (number, None = missing, "stale") in promtool's expanding notation."""
    out, i = [], 0
    while i < len(samples):
        v, j = samples[i], i
        while j + 1 < len(samples) and samples[j + 1] == v and v != "stale":
            j += 1
        run = j - i + 1
        if v is None:
            out.append("_" if run == 1 else f"_x{run}")
        elif v == "stale":
            out.append("stale")
        else:
            text = f"{v:g}" if float(v).is_integer() and abs(v) < 1e15 else repr(float(v))
            out.append(text if run == 1 else f"{text}x{run - 1}")
        i = j + 1
    return " ".join(out)


def scrape(expositions: list[dict[Labels, float]], outcomes: list[str]) -> dict[Labels, list]:
    """Store per-minute expositions the way Prometheus scrapes them (outcome per minute: ok | missed | down)."""
    keys = sorted({k for e in expositions for k in e})
    out = {k: [None] * len(expositions) for k in keys}
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


def _outcomes(scenario: Scenario, job: str) -> list[str]:
    out = ["ok"] * (scenario.duration + 1)
    down = "ksm_restart" if job == "ksm" else "exporter_gap"
    for f in scenario.faults:
        if f.kind == down or (f.kind == "missed_scrapes" and f.job == job):
            for m in range(f.at, min(f.at + f.minutes, len(out))):
                out[m] = "down" if f.kind == down else "missed"
    return out


# --- kube-state-metrics --------------------------------------------------------------------------------------
def _owner(pod: Pod) -> tuple[str, str, str]:
    if pod.owner_kind == "Deployment":
        return "ReplicaSet", f"{pod.owner_name}-{uid(pod.namespace, pod.owner_name)[:10]}", "true"
    if pod.owner_kind == "bare":
        return "<none>", "<none>", "<none>"
    return pod.owner_kind, pod.owner_name, "true"


def _node_resources(node: Node) -> dict[str, int]:
    if node.vendor == "amd":
        return {"amd_com_gpu": node.count}
    if node.mig_strategy == "mixed":
        return {ksm(f"nvidia.com/mig-{p}"): n * node.count for p, n in node.mig_layout}
    if node.mig_strategy == "single":
        return {"nvidia_com_gpu": node.mig_layout[0][1] * node.count}
    if node.replicas > 1 and node.rename_shared:
        return {"nvidia_com_gpu_shared": node.count * node.replicas}
    return {"nvidia_com_gpu": node.count * node.replicas}


def _ksm_exposition(scenario: Scenario, model: Model, cluster: str, minute: int) -> dict[Labels, float]:
    job = ("job", model.sources.kube_state_metrics_job)
    out: dict[Labels, float] = {}
    for node in scenario.nodes:
        if node.cluster != cluster:
            continue
        label = model.sources.amd_product_label if node.vendor == "amd" else model.sources.nvidia_product_label
        out[(("__name__", "kube_node_labels"), job, ("node", node.name), (label, node_product(node)))] = 1
        for res, n in _node_resources(node).items():
            for metric in ("kube_node_status_allocatable", "kube_node_status_capacity"):
                out[(("__name__", metric), job, ("node", node.name), ("resource", res), ("unit", "integer"))] = n
    deployments = set()
    for pod in scenario.pods:
        exists, phase, node = pod.state(minute)
        if pod.cluster != cluster or not exists:
            continue
        ident = (job, ("namespace", pod.namespace), ("pod", pod.name), ("uid", pod.uid))
        for metric, containers in (("kube_pod_container_resource_requests", pod.containers),
                                   ("kube_pod_init_container_resource_requests", pod.init_containers)):
            for c in containers:
                for res, q in c.requests:
                    out[(("__name__", metric), *ident, ("container", c.name), ("node", node),
                         ("resource", ksm(res)), ("unit", "integer"))] = q
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
def _devices(node: Node) -> list[tuple[int, str | None, int]]:
    """(gpu index, MIG profile or None, instance id) of every allocatable device of the node."""
    if node.mig_strategy == "none":
        return [(g, None, r) for g in range(node.count) for r in range(node.replicas)]
    return [(g, p, 1 + i) for g in range(node.count) for p, n in node.mig_layout for i in range(n)]


def _device_resource(node: Node, profile: str | None) -> str:
    if profile and node.mig_strategy == "mixed":
        return f"nvidia.com/mig-{profile}"
    if node.vendor == "amd":
        return "amd.com/gpu"
    return "nvidia.com/gpu.shared" if node.replicas > 1 and node.rename_shared else "nvidia.com/gpu"


def assignments(scenario: Scenario) -> list[dict[tuple, tuple[Pod, str]]]:
    """Per minute: {(node, gpu, profile, instance): (pod, container)}, as the device plugin hands out devices."""
    held: dict[str, list[tuple[tuple, str]]] = {}  # pod uid -> [(device, container)]
    pods = {p.uid: p for p in scenario.pods}
    out = []
    for minute in range(scenario.duration + 1):
        active = {}
        for pod in scenario.pods:
            exists, phase, node = pod.state(minute)
            if exists and phase == "Running" and node:
                active[pod.uid] = (pod, scenario.node(pod.cluster, node))
        for gone in held.keys() - active.keys():
            del held[gone]
        taken = {d for devs in held.values() for d, _ in devs}
        for pod_uid, (pod, node) in active.items():
            if pod_uid in held:
                continue
            free = [(node.name, *d) for d in _devices(node) if (node.name, *d) not in taken]
            held[pod_uid] = []
            for c in pod.containers:
                for res, q in c.requests:
                    for dev in [d for d in free if _device_resource(node, d[2]) == res][:q]:
                        held[pod_uid].append((dev, c.name))
                        free.remove(dev)
                        taken.add(dev)
        out.append({d: (pods[u], c) for u, devs in held.items() for d, c in devs})
    return out


def _pod_labels(exporter: Exporter, holder: tuple[Pod, str]) -> list[tuple[str, str]]:
    """The pod attribution labels of an exporter series as Prometheus stores them (honorLabels or not)."""
    return [(exporter.tenant_label, holder[0].namespace), (exporter.pod_label, holder[0].name),
            (exporter.container_label, holder[1])]


def _exporter_exposition(scenario: Scenario, model: Model, cluster: str, minute: int, held) -> dict[Labels, float]:
    src = model.sources
    out: dict[Labels, float] = {}
    for node in scenario.nodes:
        if node.cluster != cluster:
            continue
        units = _devices(node) if node.mig_strategy != "none" else [(g, None, 0) for g in range(node.count)]
        for g, profile, instance in units:
            holder = next((held[d] for d in sorted(held, key=str)
                           if d[:3] == (node.name, g, profile) and (profile is None or d[3] == instance)), None)
            util = holder[0].utilisation_at(minute) if holder else 0.0
            if node.vendor == "amd":
                labels = [("job", gx.sample_job(src.amd)), ("gpu_id", str(g)), ("hostname", node.name),
                          ("card_model", node.product)]
                if holder:
                    labels += _pod_labels(src.amd, holder)
                out[(("__name__", f"{src.amd_metric_prefix}gpu_gfx_activity"), *labels)] = util
                continue
            labels = [("job", gx.sample_job(src.dcgm)), ("gpu", str(g)), ("UUID", f"GPU-{uid(node.name, str(g))}"),
                      ("device", f"nvidia{g}"), ("modelName", node.product), ("Hostname", node.name)]
            if profile:
                labels += [("GPU_I_PROFILE", profile), ("GPU_I_ID", str(instance))]
            if holder:
                labels += _pod_labels(src.dcgm, holder)
            key = tuple(labels)
            out[(("__name__", "DCGM_FI_PROF_GR_ENGINE_ACTIVE"), *key)] = util / 100
            out[(("__name__", "DCGM_FI_DEV_FB_USED"), *key)] = 1024 + 100 * util if holder else 0
            if node.mig_strategy == "none":
                out[(("__name__", "DCGM_FI_DEV_GPU_UTIL"), *key)] = util
                out[(("__name__", "DCGM_FI_DEV_POWER_USAGE"), *key)] = 60 + 3 * util
        if node.vendor == "nvidia" and node.mig_strategy != "none":
            for g in range(node.count):
                out[(("__name__", "DCGM_FI_DEV_POWER_USAGE"), ("job", gx.sample_job(src.dcgm)), ("gpu", str(g)),
                     ("UUID", f"GPU-{uid(node.name, str(g))}"), ("device", f"nvidia{g}"),
                     ("modelName", node.product), ("Hostname", node.name))] = 90
    return out


def synthesise(scenario: Scenario, model: Model, cluster: str) -> list[dict[str, str]]:
    """promtool ``input_series`` of one cluster of the scenario (1m interval, minutes 0..duration)."""
    minutes = range(scenario.duration + 1)
    ksm_exp = [_ksm_exposition(scenario, model, cluster, m) for m in minutes]
    if scenario.faults_of("ksm_duplicate"):
        ksm_exp = [{(*k, ("instance", i)): v for k, v in e.items() for i in ("10.128.0.11:8443", "10.129.0.12:8443")}
                   for e in ksm_exp]
    held = assignments(scenario)
    gpu_exp = [_exporter_exposition(scenario, model, cluster, m, held[m]) for m in minutes]
    stored = {**scrape(ksm_exp, _outcomes(scenario, "ksm")), **scrape(gpu_exp, _outcomes(scenario, "dcgm"))}
    rows = sorted(stored.items(), key=lambda kv: series_name(kv[0]))
    return [{"series": series_name(k), "values": notation(v)} for k, v in rows]


# --- the push path -------------------------------------------------------------------------------------------
def push_times(scenario: Scenario, model: Model) -> list[int]:
    """Minutes at which each cluster's metrics-collector push arrives (jittered slots, lost ones removed)."""
    interval = model.billing.mco_interval // 60
    offsets = [o for f in scenario.faults_of("mco_jitter") for o in f.offsets] or [0]
    lost = {p for f in scenario.faults_of("mco_missed") for p in f.pushes}
    slots = range(0, scenario.duration + 1, interval)
    arrivals = {s + offsets[i % len(offsets)] for i, s in enumerate(slots) if s not in lost}
    return sorted(t for t in arrivals if t <= scenario.duration)


@functools.cache
def push_content(ref: Reference, t: int) -> dict[str, dict[tuple, float]]:
    """The spoke's hourly figures a push at minute ``t`` carries (contract section 6): the hour before the one
    containing ``t``, an explicit 0 for each series of the hour before that, and per cluster the start
    (seconds) of the hour described."""
    hour = t // 60 - 1
    out = {"billed_hour": {c: hour * 3600 for c in ref.s.clusters}}
    for kind, figures in (("gpu_hours", ref.gpu_hours), ("node_max", ref.node_max)):
        rows = figures(hour) if hour >= 0 else {}
        out[kind] = {**{k: 0 for k in (figures(hour - 1) if hour >= 1 else {})}, **rows}
    return out


def pushed(scenario: Scenario, model: Model, ref: Reference) -> list[dict[str, str]]:
    """What the hub stores from every cluster (1m interval): the spoke series at each push, with ``cluster``
    and ``clusterID``; nothing between pushes (the hub's store has no staleness markers)."""
    samples: dict[Labels, dict[int, float]] = {}
    for t in push_times(scenario, model):
        content = push_content(ref, t)
        rows = [((("__name__", names.HOURLY_GPU_HOURS), ("namespace", ns), ("product", p), ("resource", r)), c, v)
                for (c, ns, p, r), v in content["gpu_hours"].items()]
        rows += [((("__name__", names.NODE_ACTIVE_GPUS_MAX), ("node", n)), c, v)
                 for (c, n), v in content["node_max"].items()]
        rows += [((("__name__", names.BILLED_HOUR),), c, v) for c, v in content["billed_hour"].items()]
        rows += [((("__name__", names.POD_ALLOCATED), ("namespace", ns), ("pod", pod), ("node", n), ("product", p),
                   ("resource", r), ("workload", w), ("workload_type", wt)), c, v)
                 for (c, ns, pod, n, p, r, w, wt), v in ref.pod_allocation(t).items()]
        for labels, cluster, value in rows:
            key = (*labels, ("cluster", cluster), ("clusterID", uid("cluster", cluster)))
            samples.setdefault(key, {})[t] = value
    return [{"series": series_name(k), "values": notation([v.get(i) for i in range(scenario.duration + 1)])}
            for k, v in sorted(samples.items(), key=lambda kv: series_name(kv[0]))]
