"""A hand-written hub story: what the spokes push for a list of pods (docs/billing-contract.md section 6).

Written from the contract, independently of the rules, so end-to-end tests can load it into a real
Prometheus, run the real hub rules over it and compare what dashboards and reports show with figures worked
out by hand. A pod is a tuple ``(cluster, namespace, pod, node, product, ksm resource, units, start, end,
workload, kind, gpu model, activity)``; ``activity`` is a ratio or a function of the minute.
"""
from __future__ import annotations

import math
from datetime import UTC, datetime

from gpudash.model import series as names

# The model of the stories: an A100 class with a MIG price, an AMD class, two tenants, three clusters (one of
# which never pushes); prices make every figure easy to work out by hand. Its pushes carry the previous hour only
# (no spoke tier, so no backfill lags: e2e/test_backfill.py covers those).
MODEL = {
    "currency": "USD",
    "billing": {"period": "monthly", "resolution": "1m", "mco_interval": "5m", "burn_rate_window": "1h",
                "spoke_tier": "none"},
    "gpu_classes": [
        {"name": "a100-80gb", "vendor": "nvidia", "products": ["NVIDIA A100-SXM4-80GB"], "price_per_hour": 3.20,
         "mig": {"1g.10gb": 0.55}},
        {"name": "mi300x", "vendor": "amd", "products": ["AMD Instinct MI300X"], "price_per_hour": 4.10},
    ],
    "tenants": [
        {"name": "team-a", "namespace": "team-a", "budget": 500, "alert_at": [0.5, 0.9, 1.0]},
        {"name": "research", "namespace": "ml-research", "budget": 100},
    ],
    "clusters": ["east", "north", "west"],
}
H = 3600
STEP = 60
A100, T4, MI300 = "NVIDIA-A100-SXM4-80GB", "NVIDIA-Tesla-T4", "AMD_Instinct_MI300X"  # GFD, AMD node labeller
MIG_1G = "nvidia_com_mig_1g_10gb"


def ts(text: str) -> int:
    """Unix seconds of a UTC ISO time without offset."""
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp())

  # spoke resolution
CCSP_WEIGHT = {MIG_1G: 1 / 7}  # an A100-80GB 1g slice is 1/7 of the GPU's compute


def running(pod, t: int) -> bool:
    return pod[7] <= t < pod[8]


def hour_gpu_hours(pods, hour: int) -> dict[tuple, float]:
    """Spoke rule: the allocation summed over the resolution steps of the hour, in GPU-hours."""
    out: dict[tuple, float] = {}
    for pod in pods:
        steps = sum(1 for s in range(hour, hour + H, STEP) if running(pod, s))
        if steps:
            key = (pod[0], pod[1], pod[4], pod[5])
            out[key] = out.get(key, 0.0) + pod[6] * steps * STEP / H
    return out


def hour_node_max(pods, hour: int) -> dict[tuple, int]:
    """CCSP: per node, the most GPUs (MIG slices by compute share, rounded up) at any step of the hour."""
    out: dict[tuple, int] = {}
    for s in range(hour, hour + H, STEP):
        load: dict[tuple, float] = {}
        for pod in pods:
            if running(pod, s):
                load[(pod[0], pod[3])] = load.get((pod[0], pod[3]), 0.0) + pod[6] * CCSP_WEIGHT.get(pod[5], 1.0)
        for k, v in load.items():
            out[k] = max(out.get(k, 0), math.ceil(v - 1e-9))
    return out


class Series:
    """Samples by (name, labels), written as one OpenMetrics file."""

    def __init__(self):
        self.samples: dict[tuple, list[tuple[int, float]]] = {}

    def add(self, name: str, labels: dict, t: int, v: float) -> None:
        self.samples.setdefault((name, tuple(sorted(labels.items()))), []).append((t, v))

    def openmetrics(self) -> str:
        out = []
        for name in sorted({k[0] for k in self.samples}):
            out.append(f"# TYPE {name} gauge")
            for key in sorted(k for k in self.samples if k[0] == name):
                body = ",".join(f'{k}="{_escape(v)}"' for k, v in key[1])
                out += [f"{name}{{{body}}} {v!r} {t}" for t, v in sorted(self.samples[key])]
        return "\n".join(out) + "\n# EOF\n"


def _escape(v: str) -> str:
    return v.replace("\\", "\\\\").replace('"', '\\"')


# Energy of each push's hour before: kW per GPU (slice) a pod holds, and per cluster for GPUs no pod holds.
ENERGY_KW = {"nvidia_com_gpu": 0.4, MIG_1G: 0.05, "amd_com_gpu": 0.75}
UNALLOCATED_KW = {"east": 1.0, "west": 0.5}


def push_energy(series: Series, pods, t: int) -> None:
    """One push's hourly energy rows (kWh of the hour before per cluster and namespace, from the GPU-hours each
    pod held x ENERGY_KW; the unallocated row without namespace) and their sentinel rows."""
    prev = t - t % H - H
    kwh = {(c, ""): v for c, v in UNALLOCATED_KW.items()}
    for (cluster, ns, _product, res), gpu_hours in hour_gpu_hours(pods, prev).items():
        kwh[(cluster, ns)] = kwh.get((cluster, ns), 0.0) + gpu_hours * ENERGY_KW[res]
    for cluster in UNALLOCATED_KW:
        series.add(names.HOURLY_ENERGY, {"cluster": cluster, "clusterID": f"id-{cluster}",
                                         names.SENTINEL_LABEL: "1"}, t, 0)
    for (cluster, ns), v in kwh.items():
        series.add(names.HOURLY_ENERGY, {"cluster": cluster, "clusterID": f"id-{cluster}",
                                         **({"namespace": ns} if ns else {})}, t, v)


def _activity(pod, minutes) -> list[float]:
    value = pod[12]
    return [value(m) if callable(value) else value for m in minutes]


def push(series: Series, pods, clusters, t: int, interval: int) -> None:
    """One push of every cluster at time ``t``: the billed hour, the steps observed (all of them), the hourly
    GPU-hours and node maxima of the hour before with their sentinel rows, and per Running pod its allocation
    and activity over the push window."""
    prev = t - t % H - H
    for cluster in clusters:
        add_cluster = {"cluster": cluster, "clusterID": f"id-{cluster}"}
        series.add(names.BILLED_HOUR, add_cluster, t, prev)
        series.add(names.STEPS_OBSERVED, add_cluster, t, H // STEP)
        for hourly in (names.HOURLY_GPU_HOURS, names.NODE_ACTIVE_GPUS_MAX):
            series.add(hourly, {**add_cluster, names.SENTINEL_LABEL: "1"}, t, 0)
    for (cluster, ns, product, res), v in hour_gpu_hours(pods, prev).items():
        series.add(names.HOURLY_GPU_HOURS,
                   {"cluster": cluster, "clusterID": f"id-{cluster}", "namespace": ns, "product": product,
                    "resource": res}, t, v)
    for (cluster, node), v in hour_node_max(pods, prev).items():
        series.add(names.NODE_ACTIVE_GPUS_MAX, {"cluster": cluster, "clusterID": f"id-{cluster}", "node": node}, t, v)
    for pod in pods:
        if not running(pod, t):
            continue
        cluster, ns, name, node, product, res, units, _, _, workload, kind, gpu_model, _ = pod
        base = {"cluster": cluster, "clusterID": f"id-{cluster}", "namespace": ns, "pod": name}
        series.add("namespace_pod:gpudash_gpus_allocated:running",
                   {**base, "node": node, "product": product, "resource": res, "workload": workload,
                    "workload_type": kind}, t, units)
        activity = _activity(pod, [m for m in range(t - interval + STEP, t + 1, STEP) if running(pod, m)])
        series.add("namespace_pod:gpudash_gpu_activity:max", {**base, "gpu_model": gpu_model}, t, max(activity))
        series.add("namespace_pod:gpudash_gpu_activity:avg", {**base, "gpu_model": gpu_model}, t,
                   sum(activity) / len(activity))
