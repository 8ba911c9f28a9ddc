"""GPU energy of docs/billing-contract.md section 10: each GPU's energy per step as the spoke measures it, split
among the pods the exporter shows on its devices, and priced per cluster.

Mixed into :class:`~gpudash.simulation.reference.Reference`, whose scenario, step and allocation it reads.
"""
from __future__ import annotations

import bisect
import operator
import re
from functools import cache
from typing import TYPE_CHECKING, Any

from gpudash.model import mig, vendors
from gpudash.simulation.devices import Counter, energy_counter, gpu_watts, shown_holder, steady_rises
from gpudash.simulation.scenario import EXPORTERS, Node


class EnergyMeter:
    """Energy per step, per hour and per namespace, and its price (contract section 10)."""

    if TYPE_CHECKING:  # a mixin of Reference (simulation/reference.py), whose state and other parts it reads
        def __getattr__(self, name: str) -> Any: ...

    # whether every vendor's power is served: the golden synthesiser serves none of a vendor whose module says so
    # (``sample_power``: AMD's gpu_package_power; such a GPU without a counter rise measures nothing), the mock all
    every_power = False
    _split_seen: tuple | None = None  # (shown, pods, :meth:`_split`) of the last step split
    _gpu_rows: list | None = None  # :meth:`_gpus`
    _steady_rows: list | None = None  # :meth:`_steady_rises`: each GPU's :func:`steady_rises`, looked up once
    _plain_hours: dict  # {(id of a :meth:`_split`, rises, steps): (the split, :meth:`energy`)}: set in __init__
    _plain_splits: dict  # {(hour, since): the :meth:`_split` of each step of a :meth:`_plain_hour`}: set in __init__

    def counters(self, node: Node, gpu: int) -> Counter:
        """The GPU's energy counter (J), indexed by scrape minute."""
        key = (node.cluster, node.name, gpu)
        if key not in self._counters:
            self._counters[key] = energy_counter(self.s, node, gpu)
        return self._counters[key]

    def watts(self, node: Node, gpu: int, minute: int) -> float:
        """The GPU's power (W) at scrape ``minute``."""
        return gpu_watts(self.s, node, gpu, minute)

    def gpu_step_energy(self, node: Node, gpu: int, minute: int, since: int = 0) -> float | None:
        """Joules GPU ``gpu`` of ``node`` drew over the step ending at ``minute`` as the spoke measures it: its
        counter as seen now minus as seen a step before, when both are seen and it did not go down (a driver
        reload); else the power seen now x the step; None when nothing is seen (exporter down, no data before
        ``since``)."""
        seen = self._scrapes(minute, since)
        return None if seen is None else self._step_joules(self._gpus()[self.s.nodes.index(node)][gpu], *seen)

    def _scrapes(self, minute: int, since: int) -> tuple[int, int | None] | None:
        """The exporter scrapes the step ending at ``minute`` sees now and a step before (None when not seen or
        before ``since``), or None when it sees none now."""
        k = self._scrape_seen(EXPORTERS, minute)
        if k is None or k < since:
            return None
        k0 = self._scrape_seen(EXPORTERS, minute - self.step)
        return k, k0 if k0 is not None and k0 >= since else None

    def _gpus(self) -> list[list[tuple[Node, int, Counter | None, bool]]]:
        """Per node, per GPU: (node, GPU, its :meth:`counters` or None without a counter, whether its power is
        served) (looked up once)."""
        if self._gpu_rows is None:
            self._gpu_rows = [[(node, g, self.counters(node, g) if node.energy_counter else None,
                                self.every_power or vendors.vendor(node.vendor).sample_power)
                               for g in range(node.count)] for node in self.s.nodes]
        return self._gpu_rows

    def _step_joules(self, gpu: tuple[Node, int, Counter | None, bool], k: int, k0: int | None
                     ) -> float | None:
        """:meth:`gpu_step_energy` of a :meth:`_gpus` row once the scrapes seen now (``k``) and a step before
        (``k0``, None when not seen or before the data starts) are known."""
        node, g, counter, served = gpu
        if counter is not None and k0 is not None:
            rise = counter[k] - counter[k0]
            if rise >= 0:
                return rise
        return self.watts(node, g, k) * self.step * 60 if served else None

    def device_holders(self, node: Node, gpu: int, minute: int) -> dict[tuple, float]:
        """{(MIG profile, instance, namespace, pod): share of the GPU} of the devices the exporter shows held at
        scrape ``minute``: the pod it shows on each device, a whole GPU 1, a MIG instance its compute share, a
        time-sliced device 1/replicas; nothing on a partitioned AMD node (its energy is the physical GPU's,
        reported on partition 0)."""
        holders, key = self.shown(minute), (node.cluster, node.name, gpu)
        seen = self._holders_seen.get(key)
        if seen and seen[0] is holders:  # the same devices held as at the GPU's last look-up
            return seen[1]
        out: dict[tuple, float] = {}
        for profile, instance, share in self._energy_units(node):
            holder = shown_holder(holders, node, gpu, profile, instance)
            if holder:
                out[(profile, instance, holder[0].namespace, holder[0].name)] = share
        self._holders_seen[key] = (holders, out)
        return out

    def gpu_shares(self, node: Node, gpu: int, minute: int, pods: set) -> dict[str, float]:
        """{namespace: share of the GPU} the exporter attributes at scrape ``minute`` (:meth:`device_holders`) to
        ``pods`` ((namespace, pod) holding GPUs by the allocation: :meth:`allocated_pods`)."""
        return self.namespace_shares(self.device_holders(node, gpu, minute), pods)

    @staticmethod
    def namespace_shares(holders: dict[tuple, float], pods: set) -> dict[str, float]:
        """:meth:`device_holders`' shares of ``pods`` summed per namespace."""
        out: dict[str, float] = {}
        for (_, _, ns, pod), share in holders.items():
            if (ns, pod) in pods:
                out[ns] = out.get(ns, 0.0) + share
        return out

    @cache
    def _energy_units(self, node: Node) -> tuple[tuple[str | None, int, float], ...]:
        """(MIG profile or None, instance, share of the GPU) of each device of a GPU of ``node`` that
        :meth:`device_holders` attributes (a time-sliced replica's share divided by the replicas)."""
        whole = vendors.vendor(node.vendor).whole_partitions
        if node.partition and not re.fullmatch(whole, node.partition):  # partition 0 reports the GPU's energy
            return ()
        units: list[tuple[str | None, int, float]] = [(None, 0, 1.0)]
        if node.mig_strategy != "none":
            assert node.gpu_class and node.gpu_class.mig_model, "a MIG node has a MIG class"
            slices = mig.GPU_SLICES[node.gpu_class.mig_model][0]
            compute = {p.name: p.compute_slices for p in node.gpu_class.mig}
            units = [(p, i, compute[p] / slices) for p, n in node.mig_layout for i in range(1, n + 1)]
        top = max(c.time_slicing_replicas for c in self.model.gpu_classes)
        per_replica = 1.0 if node.replicas == 1 else (1 / node.replicas if node.replicas <= top else 0.0)
        return tuple((p, i, share * per_replica) for p, i, share in units)

    def _energy_parts(self, minute: int, since: int):
        """((cluster, namespace), joules) of each GPU's shares of the step ending at ``minute``, namespace "" for
        the unallocated share: its step energy split by :meth:`gpu_shares` at the scrape the step sees."""
        seen = self._scrapes(minute, since)
        if seen is None:
            return
        k, k0 = seen
        shares = self._split(k, self.allocated_pods(minute))
        for i, gpus in enumerate(self._gpus()):
            for gpu in gpus:
                joules = self._step_joules(gpu, k, k0)
                if joules is None:
                    continue
                for key, share in shares[(i, gpu[1])]:
                    yield key, joules * share

    def _split(self, k: int, pods: dict[str, set]) -> dict[tuple[int, int], tuple[tuple[tuple[str, str], float], ...]]:
        """{(node index, GPU): (((cluster, namespace), share), ...)}: each GPU's :meth:`gpu_shares` at scrape ``k`` of
        the ``pods`` allocated ({cluster: (namespace, pod)}), then the unallocated rest under "". Kept while the same
        devices are shown and the same pods allocated: all :meth:`gpu_shares` reads (unless a subclass reads more)."""
        shown, last = self.shown(k), self._split_seen
        if last and last[0] is shown and last[1] == pods and type(self).gpu_shares is EnergyMeter.gpu_shares:
            return last[2]
        out = {}
        for i, node in enumerate(self.s.nodes):
            held = pods.get(node.cluster, set())
            for g in range(node.count):
                shares = self.gpu_shares(node, g, k, held)
                shares[""] = max(0.0, 1 - sum(shares.values()))
                out[(i, g)] = tuple(((node.cluster, ns), share) for ns, share in shares.items())
        self._split_seen = (shown, pods, out)
        return out

    def step_energy(self, minute: int) -> dict[tuple, float]:
        """{(cluster, namespace): joules} of the step ending at ``minute`` (what the spoke tier records)."""
        out: dict[tuple, float] = {}
        for key, joules in self._energy_parts(minute, 0):
            out[key] = out.get(key, 0.0) + joules
        return out

    @cache
    def energy(self, hour: int, since: int = 0) -> dict[tuple, float]:
        """HOURLY_ENERGY of ``hour``: {(cluster, namespace): kWh}, namespace "" for the unallocated line, over the
        hour's steps (a step the spoke tier missed, or whose energy rule failed, measures nothing)."""
        plain = self._plain_hour(hour, since)
        if plain is not None:
            return self._plain_hour_energy(*plain)
        out: dict[tuple, float] = {}
        for m in self.steps(hour):
            if self.tier_has(m, "energy"):
                for key, joules in self._energy_parts(m, since):
                    out[key] = out.get(key, 0.0) + joules / 3.6e6
        return out

    def _plain_hour(self, hour: int, since: int) -> tuple[dict, tuple, int | None] | None:
        """(the :meth:`_split` of each of its steps, each GPU's counter rise at each step, None) of an hour whose every
        step records its energy, sees the scrape at the step and the one a step before, splits the GPUs' energy
        the same way (one :meth:`_split` object) and finds every GPU's counter (the per-minute tuple of
        :func:`energy_counter`) not gone down: :meth:`energy` is then a function of these alone. Else None. The
        steps of an :meth:`alike_hour` of a plain hour are those of a plain hour with its split. Where each GPU's
        counter rises by one amount at every step of the hour (:meth:`_steady_rises`): (the split, each GPU's rise,
        the number of steps), the same rises without a tuple per GPU and step."""
        steps, rows = self.steps(hour), self._gpus()
        gpus = [gpu[2] for row in rows for gpu in row]
        counters = [c for c in gpus if type(c) is tuple]
        if not counters or len(counters) < len(gpus) or steps[0] - self.step < 0:
            return None
        split = self._plain_splits.get((self.alike_hour(hour, since), since))  # the same steps' split
        for m in steps if split is None else ():
            if not self.tier_has(m, "energy") or self._scrapes(m, since) != (m, m - self.step):
                return None
            shares = self._split(m, self.allocated_pods(m))
            if split is not shares and split is not None:
                return None
            split = shares
        if split is None:
            return None
        self._plain_splits[(hour, since)] = split
        a, b, step = steps[0], steps[-1] + 1, self.step
        steady = self._steady_rises(a - step + 1, b - 1)
        if steady is not None:
            return (split, steady, len(steps)) if min(steady) >= 0 else None
        rises = tuple(tuple(map(operator.sub, c[a:b:step], c[a - step:b - step:step])) for c in counters)
        return (split, rises, None) if all(min(r) >= 0 for r in rises) else None

    def _steady_rises(self, first: int, last: int) -> tuple[float, ...] | None:
        """Each GPU's rise of :func:`energy_counter` over a step, when every minute ``first``..``last`` lies in one
        run of its :func:`steady_rises`: the step's minutes times the run's power x 60 s, what the counter's
        difference is then exactly. Else None."""
        if self._steady_rows is None:
            own = type(self).counters is EnergyMeter.counters  # (a subclass's counters are not energy_counter's)
            self._steady_rows = [steady_rises(self.s, node, g) if own else None
                                 for row in self._gpus() for node, g, _, _ in row]
        out = []
        for found in self._steady_rows:
            if found is None:
                return None
            starts, joules = found
            i = bisect.bisect_right(starts, first) - 1
            if i + 1 < len(starts) and starts[i + 1] <= last:
                return None
            out.append(self.step * joules[i])
        return tuple(out)

    def _plain_hour_energy(self, split: dict, rises: tuple, steps: int | None) -> dict[tuple, float]:
        """:meth:`energy` of a :meth:`_plain_hour`: the same sums in the same order (step by step, GPU by GPU, share
        by share), computed once per distinct (split, rises, steps) and copied: a month's idle hours are one.
        ``steps``: the hour's steps when ``rises`` holds each GPU's one rise at every step (else None)."""
        memo = (id(split), rises, steps)
        seen = self._plain_hours.get(memo)
        if seen is None or seen[0] is not split:
            if steps is not None:
                rises = tuple((rise,) * steps for rise in rises)
            parts = [split[(i, gpu[1])] for i, gpus in enumerate(self._gpus()) for gpu in gpus]
            out: dict[tuple, float] = {}
            for j in range(len(rises[0]) if rises else 0):
                for shares, rise in zip(parts, rises):
                    joules = rise[j]
                    for key, share in shares:
                        out[key] = out.get(key, 0.0) + joules * share / 3.6e6
            seen = self._plain_hours[memo] = (split, out)  # the split kept: its id stays its own
        return dict(seen[1])

    @cache
    def fleet_energy(self, hour: int, since: int = 0) -> dict[str, float]:
        """{cluster: kWh} the GPUs drew in ``hour`` as the spoke measures them (:meth:`gpu_step_energy`), whoever held
        them: what :meth:`energy`'s lines of a cluster must add up to."""
        out: dict[str, float] = {}
        for m in self.steps(hour):
            seen = self._scrapes(m, since)
            if seen is None:
                continue
            for gpus in self._gpus():
                for gpu in gpus:
                    joules = self._step_joules(gpu, *seen)
                    if joules is not None:
                        out[gpu[0].cluster] = out.get(gpu[0].cluster, 0.0) + joules / 3.6e6
        return out

    def energy_lines(self, energy: dict[tuple, float]) -> dict[tuple, tuple[float, float]]:
        """Spoke energy {(cluster, namespace): kWh} -> {(cluster, namespace): (kWh, cost)} at the cluster's price."""
        e = self.model.energy
        return {k: (v, v * (e.price(k[0]) if self.labelled else e.price_per_kwh)) for k, v in energy.items() if v}
