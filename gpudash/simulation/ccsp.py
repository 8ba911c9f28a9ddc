"""CCSP node counts of docs/billing-contract.md section 5: the GPUs active on each node at a step (from the
allocation, the physical GPUs dcgm-exporter shows fractions on, or the compute-share bound), and their hourly
maximum per node and cluster.

Mixed into :class:`~gpudash.simulation.reference.Reference`, whose scenario, SKUs and allocation it reads.
"""
from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING, Any

from gpudash.model import mig, vendors
from gpudash.model import series as names
from gpudash.simulation.devices import device_resource, devices
from gpudash.simulation.scenario import EXPORTERS


class CcspCounts:
    """Active GPUs per node and step, and per clock hour (contract section 5)."""

    if TYPE_CHECKING:  # a mixin of Reference (simulation/reference.py), whose state and other parts it reads
        def __getattr__(self, name: str) -> Any: ...

    _held_seen: tuple | None = None  # (shown, node loads, :meth:`gpus_held`) of the last look-up

    @cache
    def kind(self, product: str, resource: str) -> str:
        """How CCSP counts a unit (contract section 5): "whole" (weight 1: counted from the allocation),
        "attribution" (a fraction of an NVIDIA GPU, whose physical GPU dcgm-exporter names), "bound" (another
        fraction: by its weight only)."""
        if self.weight(product, resource) == 1:
            return "whole"
        attributing = (v.domain.replace(".", "_") + "_" for v in vendors.with_feature("attributes_fractions"))
        return "attribution" if resource.startswith(tuple(attributing)) else "bound"

    def pod_kinds(self, minute: int) -> dict[tuple, float]:
        """{(cluster, node, namespace, pod, kind): units x weight} of the allocation at ``minute``: the physical-GPU
        equivalents each pod holds per :meth:`kind` (the spoke tier's per-pod input of the active GPUs)."""
        out: dict[tuple, float] = {}
        for (cluster, ns, pod, node, product, res, _, _), q in self.pod_allocation(minute).items():
            key = (cluster, node, ns, pod, self.kind(product, res))
            out[key] = out.get(key, 0.0) + q * self.weight(product, res)
        return out

    @cache
    def node_loads(self, minute: int) -> dict[tuple, tuple[float, float, set, set, set]]:
        """{(cluster, node): (whole units, the fractions' weights, kinds, pods holding NVIDIA fractions, pods
        holding whole units)} of the allocation at ``minute``; pods as (namespace, name)."""
        out: dict[tuple, tuple[float, float, set, set, set]] = {}
        for (cluster, ns, pod, node, product, res, _, _), q in self.pod_allocation(minute).items():
            whole, frac, kinds, fractional, wholes = out.setdefault((cluster, node), (0.0, 0.0, set(), set(), set()))
            kind = self.kind(product, res)
            kinds.add(kind)
            if kind == "whole":
                whole += q
                wholes.add((ns, pod))
            else:
                frac += q * self.weight(product, res)
            if kind == "attribution":
                fractional.add((ns, pod))
            out[(cluster, node)] = (whole, frac, kinds, fractional, wholes)
        return out

    def gpus_held(self, k: int, minute: int) -> dict[tuple, set]:
        """{(cluster, node): GPU indices} on which dcgm-exporter shows, at scrape minute ``k``, a fractional device (a
        MIG slice of less than a whole GPU, a time-sliced GPU) whose pod holds NVIDIA fractions on that node by the
        allocation at ``minute`` (a time-sliced GPU's pod holding no whole unit there)."""
        loads, shown, last = self.node_loads(minute), self.shown(k), self._held_seen
        if last and last[0] is shown and last[1] == loads:  # the same devices shown, the same loads
            return last[2]
        gpus: dict[tuple, set] = {}
        for (node_name, gpu, profile, _), (pod, _) in shown.items():
            node = self.s.node(pod.cluster, node_name)
            load = loads.get((pod.cluster, node_name))
            attributes = vendors.vendor(node.vendor).attributes_fractions
            if not attributes or not load or (pod.namespace, pod.name) not in load[3]:
                continue
            if profile is None:
                fractional = node.replicas > 1 and (pod.namespace, pod.name) not in load[4]
            else:
                share = next(p.compute_slices for p in node.gpu_class.mig if p.name == profile)
                fractional = share < mig.GPU_SLICES[node.gpu_class.mig_model][0]
            if fractional:
                gpus.setdefault((pod.cluster, node_name), set()).add(gpu)
        self._held_seen = (shown, loads, gpus)
        return gpus

    def attributed_gpus(self, minute: int) -> dict[tuple, int]:
        """{(cluster, node): :meth:`gpus_held`} as an instant query at ``minute`` sees the exporter."""
        k = self._scrape_seen(EXPORTERS, minute)
        return {} if k is None else {key: len(g) for key, g in self.gpus_held(k, minute).items()}

    def exporter_seen(self, cluster: str, node: str, minute: int) -> bool:
        """Whether an instant query at ``minute`` sees any dcgm-exporter series of the node."""
        attributes = vendors.vendor(self.s.node(cluster, node).vendor).attributes_fractions
        return attributes and self._scrape_seen(EXPORTERS, minute) is not None

    def init_kept(self, minute: int) -> set[tuple]:
        """{(cluster, node)} where a pod holding NVIDIA fractions there by the allocation at ``minute`` has a regular
        init container that requested more of an NVIDIA resource than its listed containers together: kubelet keeps
        those devices for the pod, and no exporter names a pod on them (contract section 5)."""
        out = set()
        for (cluster, ns, name, node, product, res, _, _), _ in self.pod_allocation(minute).items():
            if self.kind(product, res) != "attribution":
                continue
            pod = next(p for p in self.s.pods if (p.cluster, p.namespace, p.name) == (cluster, ns, name))
            listed: dict[str, int] = {}
            for c in pod.visible_containers():
                for r, q in c.requests:
                    listed[r] = listed.get(r, 0) + q
            kept = [r for c in pod.init_containers if not c.sidecar for r, q in c.requests if q > listed.get(r, 0)]
            if any(vendors.vendor(self.s.node(cluster, node).vendor).owns(r) for r in kept):
                out.add((cluster, node))
        return out

    def allocation_bound(self, minute: int) -> dict[tuple, int]:
        """{(cluster, node): the fewest GPUs that can hold the allocation at ``minute``} (nodes with any)."""
        return {k: b for k, (w, f, *_) in self.node_loads(minute).items() if (b := math.ceil(w + f - 1e-9)) > 0}

    @cache
    def active_gpus(self, minute: int) -> dict[tuple, int]:
        """{(cluster, node, active_from): g(s)} for nodes with active GPUs, as the spoke measures them: whole units
        from the allocation; with NVIDIA fractions, whole + the physical GPUs dcgm-exporter shows them on
        (:meth:`attributed_gpus`), at least the compute-share bound, flagged "init_unseen" where a regular init
        container keeps fractions no exporter names (:meth:`init_kept`) and the node has GPUs not counted, or the
        bound alone while the exporter is not seen ("exporter_down"); other fractions by the bound.
        The same while the allocation and the devices the exporter shows are (unless a subclass reads more)."""
        if type(self).attributed_gpus is not CcspCounts.attributed_gpus or \
                type(self).exporter_seen is not CcspCounts.exporter_seen:
            return self._active_gpus(minute)
        k = self._scrape_seen(EXPORTERS, minute)
        alloc, shown = self.pod_allocation(minute), None if k is None else self.shown(k)
        key = (id(alloc), id(shown))
        seen = self._active_seen.get(key)
        if seen is None or seen[0] is not alloc or seen[1] is not shown:
            seen = self._active_seen[key] = (alloc, shown, self._active_gpus(minute))
        return seen[2]

    def _active_gpus(self, minute: int) -> dict[tuple, int]:
        """:meth:`active_gpus`, measured at ``minute``."""
        attributed, kept = self.attributed_gpus(minute), self.init_kept(minute)
        out = {}
        for (cluster, node), (whole, frac, kinds, _, _) in self.node_loads(minute).items():
            bound = math.ceil(whole + frac - 1e-9)
            if "attribution" in kinds and self.exporter_seen(cluster, node, minute):
                value, source = max(bound, round(whole) + attributed.get((cluster, node), 0)), names.FROM_ATTRIBUTION
                if (cluster, node) in kept and value < self.s.node(cluster, node).count:
                    source = names.FROM_INIT_UNSEEN
            elif "attribution" in kinds:
                value, source = bound, names.FROM_EXPORTER_DOWN
            else:
                value, source = bound, names.FROM_BOUND if "bound" in kinds else names.FROM_ALLOCATION
            if value > 0:
                out[(cluster, node, source)] = value
        return out

    def defined_gpus(self, minute: int) -> dict[tuple, int]:
        """{(cluster, node): physical GPUs a device of which is allocated to a Running pod at ``minute``}: seed 000's
        definition, from the devices the device plugin handed out (a larger init container's included), whatever
        any exporter or scrape shows. :meth:`active_gpus` equals it wherever the data is whole (tested)."""
        gpus: dict[tuple, set] = {}
        for (node, gpu, *_), (pod, _) in self.held(minute).items():
            gpus.setdefault((pod.cluster, node), set()).add(gpu)
        out = {k: len(g) for k, g in gpus.items()}
        # a GPU resource no simulated device plugin hands out (a KubeVirt passthrough GPU, another vendor's): each
        # unit allocated is a physical GPU of its own
        for (cluster, _, _, node, _, res, _, _), q in self.pod_allocation(minute).items():
            n = self.s.node(cluster, node)
            if res not in {self.billed(n, device_resource(n, d[1]), 1)[0] for d in devices(n)}:
                out[(cluster, node)] = out.get((cluster, node), 0) + round(q)
        return out

    @cache
    def node_max_by_source(self, hour: int, since: int = 0) -> dict[tuple, int]:
        """NODE_ACTIVE_GPUS_MAX of ``hour`` as the spoke writes it: {(cluster, node, active_from): max active GPUs}
        over the steps at or after minute ``since`` (an :meth:`alike_hour`'s)."""
        alike = self.alike_hour(hour, since)
        if alike != hour:
            return dict(self.node_max_by_source(alike, since))
        out: dict[tuple, int] = {}
        for m in self.steps(hour):
            if m < since or not self.tier_has(m, "active"):
                continue
            for k, g in self.active_gpus(m).items():
                out[k] = max(out.get(k, 0), g)
        return out

    @cache
    def node_max(self, hour: int, since: int = 0) -> dict[tuple, int]:
        """{(cluster, node): max active GPUs} of ``hour`` (nodes with at least one), whichever source each step
        used: what the hub keeps."""
        out: dict[tuple, int] = {}
        for (cluster, node, _), g in self.node_max_by_source(hour, since).items():
            out[(cluster, node)] = max(out.get((cluster, node), 0), g)
        return out

    def fleet(self, hour: int) -> dict[str, tuple[int, int]]:
        """{cluster: (active nodes, fleet GPUs)} of ``hour``."""
        out: dict[str, tuple[int, int]] = {}
        for (cluster, _), g in self.node_max(hour).items():
            nodes, gpus = out.get(cluster, (0, 0))
            out[cluster] = (nodes + 1, gpus + g)
        return out
