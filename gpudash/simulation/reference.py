"""The independent reference model: docs/billing-contract.md in plain arithmetic over a scenario's timeline.

No PromQL and nothing from gpudash.render.rules or gpudash.render.alerts: only the model types and the MIG tables.
Times are whole minutes from 0 (1970-01-01T00:00Z); hour ``h`` is ``[60h, 60h + 60)``. Faults are seen the way a
Prometheus sees them: a missed scrape is bridged by the 5-minute lookback, a down target's series are stale
(no allocation) until it is back, and an HA duplicate counts once.

:class:`Reference` holds the SKUs, the allocation, activity, burn rates and the period to date; the hourly billing
(:mod:`~gpudash.simulation.hourly`), CCSP node counts (:mod:`~gpudash.simulation.ccsp`) and energy
(:mod:`~gpudash.simulation.energy`) are its mixins.
"""
from __future__ import annotations

import bisect
import re
from datetime import UTC, datetime
from functools import cache, cached_property

from gpudash.model import mig, vendors
from gpudash.model.types import GpuClass, Model
from gpudash.simulation.ccsp import CcspCounts
from gpudash.simulation.devices import assignments, exporter_visible, power_watts, shown_changes, shown_holders
from gpudash.simulation.energy import EnergyMeter
from gpudash.simulation.hourly import HourlyBilling
from gpudash.simulation.scenario import EXPORTERS, LOOKBACK, Node, Pod, Scenario


def partition_share(product: str, partition: str) -> float:
    """An AMD compute partition's share of its GPU, from its compute mode (AMD Instinct MI300 "GPU partitioning":
    SPX whole, DPX 2, TPX 3, QPX 4 partitions, CPX one per XCD: 8 on MI300X/MI325X, 6 on MI300A)."""
    mode = partition.split("_")[0]
    per_gpu = {"spx": 1, "dpx": 2, "tpx": 3, "qpx": 4}.get(mode, 6 if "MI300A" in product.upper() else 8)
    return 1 / per_gpu


@cache
def label_value(vendor: str, product: str) -> str:
    """The node's product label value: GPU Feature Discovery for NVIDIA (characters outside ``[A-Za-z0-9-_. ]``
    dropped, words joined by ``-``), the AMD node labeller for AMD (spaces -> ``_``, parentheses dropped)."""
    return vendors.vendor(vendor).product_value(product)


_NOT_KSM = re.compile(r"[^a-zA-Z0-9_]")


@cache
def ksm(resource: str) -> str:
    """kube-state-metrics' resource name: ``nvidia.com/mig-1g.10gb`` -> ``nvidia_com_mig_1g_10gb``."""
    return _NOT_KSM.sub("_", resource)


def node_product(node: Node) -> str:
    """The node's product label value."""
    p = label_value(node.vendor, node.product)
    shared = "-SHARED" if node.replicas > 1 and not node.rename_shared else ""
    if node.mig_strategy == "single":
        return f"{p}-MIG-{label_value(node.vendor, node.mig_layout[0][0])}{shared}"
    if shared and node.mig_strategy == "none":
        return f"{p}-SHARED"
    return p


def workload(pod: Pod) -> tuple[str, str]:
    """(workload, workload_type): the controlling owner (a ReplicaSet resolved to its Deployment), else the pod."""
    if pod.owner_kind == "bare":
        return pod.name, "Pod"
    return pod.owner_name, pod.owner_kind


def period_start(minute: int) -> int:
    """Start (minutes) of the calendar month (UTC) containing ``minute``."""
    t = datetime.fromtimestamp(minute * 60, UTC)
    return int(datetime(t.year, t.month, 1, tzinfo=UTC).timestamp()) // 60


class Reference(HourlyBilling, CcspCounts, EnergyMeter):
    """Expected billing figures of one scenario under one model."""

    reads_own_inputs = True  # :meth:`alike_hour` holds; a subclass that reads other inputs does not say so

    def __init__(self, scenario: Scenario, model: Model, labelled: bool = True):
        """``labelled``: the hub rules see the data's ``cluster`` (false for one spoke's own Prometheus, where the
        energy price is energy.price_per_kwh)."""
        self.s, self.model, self.labelled = scenario, model, labelled
        self.step = model.billing.resolution // 60  # minutes per allocation step
        self.products = {(n.cluster, n.name): node_product(n) for n in scenario.nodes}
        self._alloc: dict[int, dict[tuple, float]] = {}
        self._alloc_by_state: dict[tuple, dict[tuple, float]] = {}  # (scenario id, state epoch): allocation
        self._active_seen: dict[tuple, tuple] = {}  # (ids of allocation, shown): (allocation, shown, active GPUs)
        self._counters: dict[tuple, tuple[float, ...]] = {}  # (cluster, node, gpu): energy counter per minute
        self._holders_seen: dict[tuple, tuple[dict, dict]] = {}  # (cluster, node, gpu): (shown, device_holders)
        self._plain_hours: dict[tuple, tuple[dict, dict]] = {}  # energy.EnergyMeter._plain_hour_energy
        self._plain_splits: dict[tuple, dict] = {}  # energy.EnergyMeter._plain_hour
        self._skus: dict[tuple[str, str], tuple[GpuClass, str, float] | None] = {}  # (product, resource): sku

    # --- SKUs (contract section 4) --------------------------------------------------------------------------
    def sku(self, product: str, resource: str) -> tuple[GpuClass, str, float] | None:
        """(class, billed resource, price per hour) of a kube-state-metrics ``resource`` on ``product``."""
        key = (product, resource)
        if key not in self._skus:
            self._skus[key] = self._find_sku(product, resource)
        return self._skus[key]

    def _find_sku(self, product: str, resource: str) -> tuple[GpuClass, str, float] | None:
        """:meth:`sku`, looked up in the model's classes."""
        for c in self.model.gpu_classes:
            v = vendors.vendor(c.vendor)
            whole, shared_res = ksm(v.resource), ksm(f"{v.resource}.shared")
            for q in sorted({label_value(c.vendor, p) for p in c.products}):
                if product == q and resource == ksm(c.whole_resource):
                    return c, c.whole_resource, c.price_per_hour
                name = resource.removeprefix(ksm(v.domain) + "_")
                if (v.partitions and product == q and name != resource and name != "gpu"
                        and v.owns(f"{v.domain}/{name}")):
                    price = dict(c.partitions).get(name, c.price_per_hour * partition_share(q, name))
                    return c, f"{v.domain}/{name}", price
                if not v.attributes_fractions:
                    continue
                if (product, resource) in ((q, shared_res), (f"{q}-SHARED", whole)):
                    return c, f"{v.resource}.shared", c.shared_price_per_hour
                for p in c.mig:
                    single = f"{q}-MIG-{label_value(c.vendor, p.name)}"  # GFD drops the + of 1g.10gb+me
                    if (product, resource) in ((q, ksm(p.resource)), (single, whole)):
                        return c, p.resource, p.price_per_hour
                    shared = ((q, ksm(p.resource) + "_shared"), (f"{single}-SHARED", whole),
                              (single, shared_res))
                    if c.time_slicing_replicas > 1 and (product, resource) in shared:
                        return c, f"{p.resource}.shared", p.price_per_hour  # per slice: units are slices
        return None

    def billed(self, node: Node, resource: str, units: int) -> tuple[str, float]:
        """(kube-state-metrics resource, units) a request is billed as. A time-sliced MIG slice counts as
        1/replicas of a slice (the node's replicas label), under ``..._shared`` on a mixed-strategy node; a
        replica count above every MIG class's ``time_slicing.replicas`` stays whole, under a name no SKU has."""
        v = vendors.vendor(node.vendor)
        if node.partition and resource == v.resource:  # single naming: one whole-GPU resource is one partition
            return f"{ksm(v.domain)}_{node.partition}", units
        shared = node.mig_strategy != "none" and node.replicas > 1
        if not shared:
            return ksm(resource), units
        name = ksm(resource)
        if node.mig_strategy == "mixed":
            name = ksm(resource.removesuffix(".shared")) + "_shared"
        top = max((c.time_slicing_replicas for c in self.model.gpu_classes if c.mig), default=1)
        if node.replicas > top:
            return f"{name}_replicas_{node.replicas}", units
        return name, units / node.replicas

    @cache
    def weight(self, product: str, resource: str) -> float:
        """Physical GPUs one unit counts as for CCSP (contract section 5)."""
        found = self.sku(product, resource)
        kind, name = vendors.device(found[1]) if found else ("whole", "")
        if found and kind == "mig":
            slices = next(p.compute_slices for p in found[0].mig if p.name == name.removesuffix(".shared"))
            assert found[0].mig_model, "a class pricing a MIG resource has a MIG model"
            return slices / mig.GPU_SLICES[found[0].mig_model][0]
        if found and kind == "shared":
            return 1 / found[0].time_slicing_replicas
        if kind == "partition":
            return partition_share(product, name)
        return 1.0

    # --- allocation (contract section 2) --------------------------------------------------------------------
    @cache
    def _scrape_seen(self, job: str, minute: int) -> int | None:
        """The minute of the scrape of ``job`` an instant query at ``minute`` sees (the newest one within the
        lookback), or None (none, or the target was down: its series are stale)."""
        scrapes = self.s.scrape_outcomes(job)
        for k in range(minute, max(minute - LOOKBACK, -1), -1):
            if k >= len(scrapes) or scrapes[k] == "missed":
                continue
            return None if scrapes[k] == "down" else k
        return None

    def observed(self, pod: Pod, minute: int) -> tuple[str, str] | None:
        """(phase, node) an instant query at ``minute`` sees for ``pod``, or None (no fresh, non-stale sample)."""
        k = self._scrape_seen("ksm", minute)
        if k is None:
            return None
        exists, phase, node = pod.state(k)
        return (phase, node) if exists else None

    def allocation(self, pod: Pod, minute: int) -> dict[str, int]:
        """A(pod, minute): {Kubernetes resource: units} billed at this step; empty when not Running and bound."""
        seen = self.observed(pod, minute)
        if not seen or seen[0] != "Running" or not seen[1]:
            return {}
        return {r: q for r, q in pod.effective().items() if q}

    def pod_allocation(self, minute: int) -> dict[tuple, float]:
        """POD_ALLOCATED: {(cluster, namespace, pod, node, product, ksm resource, workload, workload_type): units}.
        Shared by the minutes whose kube-state-metrics scrape seen sees the same pod states (one object)."""
        if minute in self._alloc:
            return self._alloc[minute]
        k = self._scrape_seen("ksm", minute)
        key = (id(self.s), None if k is None else self.s.state_epoch(k))  # self.s: FastReference swaps it
        if key not in self._alloc_by_state:
            self._alloc_by_state[key] = self._allocation_at(minute)
        self._alloc[minute] = self._alloc_by_state[key]
        return self._alloc[minute]

    def _allocation_at(self, minute: int) -> dict[tuple, float]:
        """:meth:`pod_allocation` at ``minute``, from each pod :meth:`observed` there."""
        out: dict[tuple, float] = {}
        for pod in self.s.pods:
            node = self.observed(pod, minute)
            for r, q in self.allocation(pod, minute).items():
                assert node is not None, "an allocation is of an observed pod"
                res, units = self.billed(self.s.node(pod.cluster, node[1]), r, q)
                key = (pod.cluster, pod.namespace, pod.name, node[1], self.products[(pod.cluster, node[1])], res,
                       *workload(pod))
                out[key] = out.get(key, 0) + units
        return out

    @cached_property
    def _changes(self) -> list[int]:
        """The minutes at which an input of a step's hourly figures may differ from the minute before's: a pod's
        lifecycle event (the pod states kube-state-metrics shows: :meth:`pod_allocation`), the devices the exporter
        shows (:func:`shown_changes`), a scrape of kube-state-metrics or the exporters that is not "ok" and the
        :data:`LOOKBACK` after it (while every scrape of the lookback is "ok", an instant query sees the scrape of
        its own minute), and every minute of a ``tier_missed`` or ``tier_rule_failed`` fault and the one after."""
        out = {e.at for p in self.s.pods for e in p.lifecycle} | set(shown_changes(self.s))
        for job in ("ksm", EXPORTERS):
            for i, outcome in enumerate(self.s.scrape_outcomes(job)):
                if outcome != "ok":
                    out.update(range(i, i + LOOKBACK + 1))
        for f in (*self.s.faults_of("tier_missed"), *self.s.faults_of("tier_rule_failed")):
            out.update(range(f.at, f.at + f.minutes + 1))
        return sorted(out)

    def alike_hour(self, hour: int, since: int = 0) -> int:
        """The first hour whose steps, from the step before its first on, see the same inputs as ``hour``'s (no
        :meth:`_changes` minute in between, every step at or after ``since``), or ``hour``: its hourly figures
        (GPU-hours, node maxima, steps observed, and the energy split) are ``hour``'s, step by step, so a month of
        unchanged hours is computed once. Only this class's inputs: a subclass (the mock's) reads others, unless its
        own body says ``reads_own_inputs``."""
        end = hour * 60 + 59
        if not vars(type(self)).get("reads_own_inputs") or end > self.s.duration:
            return hour
        i = bisect.bisect_right(self._changes, end)
        last = self._changes[i - 1] if i else -1
        first = max(-(-(last + 1 + self.step) // 60), -(-(max(since, 0) + self.step) // 60))
        return min(first, hour)

    def held(self, minute: int) -> dict[tuple, tuple[Pod, str]]:
        """The devices held at ``minute``: {(node, gpu, profile, ...): (pod, container)}."""
        return assignments(self.s)[minute]

    def shown(self, minute: int) -> dict[tuple, tuple[Pod, str]]:
        """The pod the exporter shows on each device at scrape ``minute`` (devices.holder_index)."""
        return shown_holders(self.s, minute)

    def allocated_pods(self, minute: int) -> dict[str, set]:
        """{cluster: {(namespace, pod)}} of the pods holding GPUs by the allocation at ``minute``: the only pods an
        exporter series is attributed to (contract section 5, exporter labels)."""
        out: dict[str, set] = {}
        for cluster, ns, pod, *_ in self.pod_allocation(minute):
            out.setdefault(cluster, set()).add((ns, pod))
        return out

    # --- GPU activity and idle (contract section 9) ----------------------------------------------------------
    @cache
    def power(self, minute: int) -> dict[tuple, float]:
        """{(cluster, namespace, pod): peak power (W)} over the push window (as :meth:`activity`) of the whole
        NVIDIA GPUs the pod holds (dcgm-exporter attributes a MIG node's power to no pod)."""
        window = self.model.billing.mco_interval // 60
        out: dict[tuple, float] = {}
        for k in range(max(minute - window + 1, 0), minute + 1):
            if self.s.scrape_outcomes(EXPORTERS)[k] != "ok":
                continue
            for device, (pod, _) in exporter_visible(self.held(k)).items():
                node = self.s.node(pod.cluster, device[0])
                if vendors.vendor(node.vendor).sample_power and node.mig_strategy == "none":
                    key = (pod.cluster, pod.namespace, pod.name)
                    out[key] = max(out.get(key, 0.0), power_watts(pod.utilisation_at(k)))
        pods = self.allocated_pods(minute)
        return {k: v for k, v in out.items() if k[1:] in pods.get(k[0], ())}

    @cache
    def activity(self, minute: int) -> dict[tuple, tuple[float, float]]:
        """{(cluster, namespace, pod, gpu_model): (peak, mean)} activity ratio over the push window ``(minute - P,
        minute]`` (the rules' range is 1 ms short of ``P``, so Prometheus 2 and 3 read this window alike,
        :func:`gpudash.promql.build.window`): per exporter series (a device the pod holds) the max / mean of its
        scraped samples, then the max / mean of those per pod. NVIDIA nodes only (dcgm-exporter: engine
        activity, ``modelName`` the product)."""
        window = self.model.billing.mco_interval // 60
        series: dict[tuple, list[float]] = {}
        for k in range(max(minute - window + 1, 0), minute + 1):
            if self.s.scrape_outcomes(EXPORTERS)[k] != "ok":
                continue
            for device, (pod, container) in exporter_visible(self.held(k)).items():
                node = self.s.node(pod.cluster, device[0])
                if not vendors.vendor(node.vendor).model_label_names_product:
                    raise ValueError(f"scenario {self.s.name}: the reference models the activity of exporters "
                                     "whose model label names the product only")
                key = (pod.cluster, pod.namespace, pod.name, node.product, device, container)
                series.setdefault(key, []).append(pod.utilisation_at(k) / 100)
        per_pod: dict[tuple, list[tuple[float, float]]] = {}
        for (*head, _, _), values in series.items():
            per_pod.setdefault(tuple(head), []).append((max(values), sum(values) / len(values)))
        pods = self.allocated_pods(minute)
        return {k: (max(p for p, _ in v), sum(a for _, a in v) / len(v)) for k, v in per_pod.items()
                if k[1:3] in pods.get(k[0], ())}

    def idle(self, minute: int) -> dict[tuple, float]:
        """POD_IDLE: {(cluster, namespace, pod, gpu_model, workload, workload_type): cost per hour} of the pods
        with a cost now whose peak activity was zero at every push in ``(minute - W, minute]`` (W =
        alerts.idle.window, a range 1 ms short as the push window) and that had an
        activity figure at a push in ``(minute - W - 1.5 P, minute - W]`` (observed since the window started),
        within the idle namespace and GPU-model regexes, unless the power veto is on and the pod's peak power
        over the window reached it."""
        idle, step = self.model.alerts.idle, self.model.billing.mco_interval // 60
        window = idle.window // 60
        pushes = range(0, minute + 1, step)
        peaks: dict[tuple, float] = {}
        drawn: dict[tuple, float] = {}
        for m in (m for m in pushes if minute - window < m):
            for key, (peak, _) in self.activity(m).items():
                peaks[key] = max(peaks.get(key, 0.0), peak)
            for key, watts in self.power(m).items():
                drawn[key] = max(drawn.get(key, 0.0), watts)
        seen = {key for m in pushes if minute - window - step * 3 / 2 < m <= minute - window
                for key in self.activity(m)}
        rates = self.pod_cost_rate(minute)
        out = {}
        for (cluster, ns, pod, model), peak in peaks.items():
            wl = next(((w, t) for (c, n, p, w, t) in rates if (c, n, p) == (cluster, ns, pod)), None)
            vetoed = 0 < idle.power_veto_watts <= drawn.get((cluster, ns, pod), 0.0)
            if (peak == 0 and wl and not vetoed and (cluster, ns, pod, model) in seen
                    and re.fullmatch(idle.namespace_regex, ns) and re.fullmatch(idle.model_regex, model)):
                out[(cluster, ns, pod, model, *wl)] = rates[(cluster, ns, pod, *wl)]
        return out

    # --- current allocation and burn rates (contract section 7) ---------------------------------------------
    def _priced_allocation(self, minute: int):
        """(POD_ALLOCATED key, SKU as :meth:`sku` gives it, units) of each priced allocation at ``minute``."""
        for key, q in self.pod_allocation(minute).items():
            found = self.sku(key[4], key[5])
            if found:
                yield key, found, q

    def class_allocated(self, minute: int) -> dict[tuple, float]:
        """{(cluster, namespace, gpu_class, billed resource): priced units allocated} at ``minute``."""
        out: dict[tuple, float] = {}
        for (cluster, ns, *_), (gpu_class, resource, _), q in self._priced_allocation(minute):
            key = (cluster, ns, gpu_class.name, resource)
            out[key] = out.get(key, 0.0) + q
        return out

    def pod_cost_rate(self, minute: int) -> dict[tuple, float]:
        """{(cluster, namespace, pod, workload, workload_type): cost per hour} of the allocation at ``minute``."""
        out: dict[tuple, float] = {}
        for (cluster, ns, pod, _, _, _, wl, wl_type), (_, _, price), q in self._priced_allocation(minute):
            key = (cluster, ns, pod, wl, wl_type)
            out[key] = out.get(key, 0.0) + q * price
        return out

    def workload_cost_rate(self, minute: int) -> dict[tuple, float]:
        """{(cluster, namespace, workload, workload_type): cost per hour} at ``minute``."""
        out: dict[tuple, float] = {}
        for (cluster, ns, _, wl, wl_type), rate in self.pod_cost_rate(minute).items():
            out[(cluster, ns, wl, wl_type)] = out.get((cluster, ns, wl, wl_type), 0.0) + rate
        return out

    def cost_rate(self, minute: int) -> dict[tuple, float]:
        """{(cluster, namespace): cost per hour} of the allocation at ``minute``."""
        out: dict[tuple, float] = {}
        for (cluster, ns, *_), rate in self.pod_cost_rate(minute).items():
            out[(cluster, ns)] = out.get((cluster, ns), 0.0) + rate
        return out

    def avg_cost_rate(self, minute: int) -> dict[tuple, float]:
        """{(cluster, namespace): average cost per hour over billing.burn_rate_window} at ``minute``: the cost
        rate sampled every push interval (at multiples of it since the epoch) over the window ending at
        ``minute``, time without a rate counting as zero."""
        step, window = self.model.billing.mco_interval // 60, self.model.billing.burn_rate_window // 60
        out: dict[tuple, float] = {}
        for m in range(minute, max(minute - window, -1), -step):
            for key, rate in self.cost_rate(m).items():
                out[key] = out.get(key, 0.0) + rate * step / window
        return out

    @staticmethod
    def billed_hour_start(minute: int) -> int:
        """The heartbeat at ``minute``: start (Unix seconds) of the clock hour before the one containing it."""
        return (minute // 60 - 1) * 3600

    # --- model data (contract section 8) --------------------------------------------------------------------
    def tenant_info(self) -> dict[tuple, int]:
        """{(model cluster, namespace, tenant): 1}."""
        return {(c, t.namespace, t.name): 1 for c in self.model.clusters for t in self.model.tenants}

    def tenant_rows(self) -> dict[tuple, float]:
        """{(row "<namespace> <tenant> <alert_at,...>",): budget} of the compact tenant table."""
        return {(f"{t.namespace} {t.name} {','.join(f'{a:g}' for a in t.alert_at)}",): t.budget
                for t in self.model.tenants}

    # --- period to date (contract section 7) ----------------------------------------------------------------

    def period_to_date_by_cluster(self, minute: int, rate_minute: int | None = None,
                                  hour_costs=None) -> dict[tuple[str, str], float]:
        """{(cluster, tenant namespace): cost} at ``minute``: the complete hours the hub has settled (up to the hour
        before last, ``billing.backfill_hours`` earlier with backfill), plus the cost rate at ``rate_minute``
        (default ``minute``) x the time since then, within the period.
        ``hour_costs`` (hour) -> {(cluster, namespace): cost} gives what the hub recorded for each hour (default:
        :meth:`hour_costs` of the spoke's figures). Only pairs with usage are listed."""
        start, settled = period_start(minute), minute // 60 - 1 - self.model.billing.backfill_hours
        tenants = {t.namespace for t in self.model.tenants}
        out: dict[tuple[str, str], float] = {}
        for hour in range(max(start // 60, 0), settled):
            costs = hour_costs(hour) if hour_costs else self.hour_costs(self.gpu_hours(hour), self.energy(hour))
            for (cluster, ns), cost in costs.items():
                if ns in tenants:
                    out[(cluster, ns)] = out.get((cluster, ns), 0.0) + cost
        since = min(minute - settled * 60, minute - start)
        for (cluster, ns), rate in self.cost_rate(minute if rate_minute is None else rate_minute).items():
            if ns in tenants:
                out[(cluster, ns)] = out.get((cluster, ns), 0.0) + rate * since / 60
        return out

    def period_to_date(self, minute: int, rate_minute: int | None = None, hour_costs=None) -> dict[str, float]:
        """{tenant namespace: cost} at ``minute``: :meth:`period_to_date_by_cluster` summed over clusters."""
        return self.tenant_totals(self.period_to_date_by_cluster(minute, rate_minute, hour_costs))

    def tenant_totals(self, by_cluster: dict[tuple[str, str], float]) -> dict[str, float]:
        """{tenant namespace: cost} of {(cluster, tenant namespace): cost} ``by_cluster``, summed over clusters."""
        out = {t.namespace: 0.0 for t in self.model.tenants}
        for (_, ns), cost in by_cluster.items():
            out[ns] += cost
        return out

    def projection_by_cluster(self, minute: int) -> dict[tuple[str, str], float]:
        """{(cluster, tenant namespace): projected cost at the period end} at ``minute``: period-to-date plus the
        average cost rate x the time left until the next period starts."""
        out = self.period_to_date_by_cluster(minute)
        left = period_start(period_start(minute) + 32 * 24 * 60) - minute
        tenants = {t.namespace for t in self.model.tenants}
        for (cluster, ns), rate in self.avg_cost_rate(minute).items():
            if ns in tenants:
                out[(cluster, ns)] = out.get((cluster, ns), 0.0) + rate * left / 60
        return out

    def thresholds_crossed(self, minute: int) -> dict[str, tuple[float, ...]]:
        """{tenant name: budget fractions its period-to-date cost has reached} at ``minute``."""
        ptd = self.period_to_date(minute)
        return {t.name: tuple(f for f in t.alert_at if ptd[t.namespace] >= f * t.budget) for t in self.model.tenants}
