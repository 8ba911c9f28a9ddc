"""The hourly billing of docs/billing-contract.md section 3: the allocation summed over each clock hour's steps,
the steps observed, and the GPU-hours priced into billing lines.

Mixed into :class:`~gpudash.simulation.reference.Reference`, whose scenario, step and allocation it reads.
"""
from __future__ import annotations

from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from gpudash.simulation.scenario import LOOKBACK, TIER_RULES


class HourlyBilling:
    """GPU-hours, steps observed and billing lines per clock hour (contract section 3)."""

    if TYPE_CHECKING:  # a mixin of Reference (simulation/reference.py), whose state and other parts it reads
        def __getattr__(self, name: str) -> Any: ...

    _lines_seen: tuple | None = None  # (allocation, :meth:`product_lines`) of the last look-up

    def steps(self, hour: int) -> range:
        return range(hour * 60, hour * 60 + 60, self.step)

    @cached_property
    def _tier_missed(self) -> frozenset[int]:
        """The minutes of every ``tier_missed`` fault."""
        return frozenset(m for f in self.s.faults_of("tier_missed") for m in range(f.at, f.at + f.minutes))

    def tier_recorded(self, minute: int) -> bool:
        """Whether the spoke tier's group ran at the step at ``minute``: unless that evaluation was missed (a
        ``tier_missed`` fault, run only with the tier on): a missed step is neither billed nor observed."""
        return minute not in self._tier_missed

    @cache
    def tier_lost(self, minute: int) -> frozenset[str]:
        """The figures of the step at ``minute`` (``allocation``, ``active``, ``energy``) whose tier rule failed
        there (``tier_rule_failed``; :data:`~gpudash.simulation.scenario.TIER_RULES`), of those the model records."""
        failed = self.s.faults_of("tier_rule_failed")
        if not failed:
            return frozenset()
        lost = {TIER_RULES[r] for f in failed if f.at <= minute < f.at + f.minutes for r in f.rules}
        return frozenset(lost if self.model.energy.metered else lost - {"energy"})

    def tier_has(self, minute: int, figure: str) -> bool:
        """Whether the step at ``minute`` recorded ``figure`` (contract section 6: a figure a step did not record
        bills nothing for that step, never the step before's)."""
        return self.tier_recorded(minute) and figure not in self.tier_lost(minute)

    @cache
    def _units(self, hour: int, since: int) -> dict[tuple, float]:
        """{(cluster, namespace, product, ksm resource): sum over the hour's steps from minute ``since`` of units}
        (exact but for a time-sliced slice's 1/replicas); an :meth:`alike_hour`'s sums."""
        alike = self.alike_hour(hour, since)
        if alike != hour:
            return self._units(alike, since)
        acc: dict[tuple, float] = {}
        for m in self.steps(hour):
            if m < since or not self.tier_has(m, "allocation"):
                continue
            for key, q in self.product_lines(m).items():
                acc[key] = acc.get(key, 0) + q
        return acc

    def product_lines(self, minute: int) -> dict[tuple, float]:
        """{(cluster, namespace, product, ksm resource): units} allocated at ``minute`` (kept while the allocation
        is the same object: :meth:`pod_allocation`)."""
        alloc, last = self.pod_allocation(minute), self._lines_seen
        if last and last[0] is alloc:
            return last[1]
        out: dict[tuple, float] = {}
        for (cluster, ns, _, _, product, res, _, _), q in alloc.items():
            out[(cluster, ns, product, res)] = out.get((cluster, ns, product, res), 0) + q
        self._lines_seen = (alloc, out)
        return out

    @cache
    def gpu_hours(self, hour: int, since: int = 0) -> dict[tuple, float]:
        """HOURLY_GPU_HOURS of ``hour``: {(cluster, namespace, product, ksm resource): GPU-hours}, from the steps
        at or after minute ``since`` (a spoke Prometheus that holds no data before ``since``)."""
        return {k: v * self.step / 60 for k, v in self._units(hour, since).items() if v}

    @cache
    def ksm_up(self, minute: int) -> bool:
        """Whether an instant query at ``minute`` sees kube-state-metrics' ``up`` at 1 (the newest scrape within the
        lookback succeeded; a missed scrape leaves no sample, a failed one records 0)."""
        scrapes = self.s.scrape_outcomes("ksm")
        for k in range(minute, max(minute - LOOKBACK, -1), -1):
            if k < len(scrapes) and scrapes[k] != "missed":
                return scrapes[k] == "ok"
        return False

    @cache
    def steps_observed(self, hour: int, since: int = 0) -> int:
        """STEPS_OBSERVED of ``hour`` (any cluster: faults apply to every cluster): steps at or after ``since`` at
        which kube-state-metrics was up and, with the tier, every figure of the step was recorded (an
        :meth:`alike_hour`'s)."""
        alike = self.alike_hour(hour, since)
        if alike != hour:
            return self.steps_observed(alike, since)
        return sum(1 for m in self.steps(hour) if m >= since and self.tier_observed(m) and self.ksm_up(m))

    def tier_observed(self, minute: int) -> bool:
        """Whether the tier recorded every figure of the step at ``minute`` (contract section 6: a step is observed
        only then; without the tier, always)."""
        return self.tier_recorded(minute) and not self.tier_lost(minute)

    def tier_missing(self, minute: int) -> dict[tuple, int]:
        """INPUT_MISSING's spoke-tier rows at ``minute`` (docs/billing.md, the spoke recording tier: the tier's
        heartbeat absent for a push interval, at least two tier steps, while kube-state-metrics is up):
        {(cluster,): 1} per cluster with no heartbeat recorded in ``(minute - interval, minute]``."""
        interval = max(self.model.billing.mco_interval, 2 * self.model.billing.resolution) / 60
        beats = [k for k in range(0, minute + 1, self.step) if minute - interval < k
                 and self.ksm_up(k) and self.tier_observed(k)]
        if not self.model.billing.tier or beats or not self.ksm_up(minute):
            return {}
        return {(c,): 1 for c in self.s.clusters}

    def steps_per_hour(self) -> int:
        return len(self.steps(0))

    def price(self, gpu_hours: dict[tuple, float]) -> tuple[dict[tuple, tuple[float, float]], dict[tuple, float]]:
        """Spoke figures {(cluster, namespace, product, ksm resource): GPU-hours} -> billing lines
        {(cluster, namespace, gpu_class, billed resource): (GPU-hours, cost)} and the unpriced rest."""
        lines: dict[tuple, tuple[float, float]] = {}
        unpriced = {}
        for (cluster, ns, product, res), v in gpu_hours.items():
            found = self.sku(product, res)
            if not v:
                continue
            if not found:
                unpriced[(cluster, ns, product, res)] = v
                continue
            key = (cluster, ns, found[0].name, found[1])
            hours, cost = lines.get(key, (0.0, 0.0))
            lines[key] = (hours + v, cost + v * found[2])
        return lines, unpriced

    @cache
    def billing(self, hour: int) -> dict[tuple, tuple[float, float]]:
        """{(cluster, namespace, gpu_class, billed resource): (GPU-hours, cost)} of ``hour``."""
        return self.price(self.gpu_hours(hour))[0]

    def unpriced(self, hour: int) -> dict[tuple, float]:
        """{(cluster, namespace, product, ksm resource): GPU-hours} of ``hour`` without a price."""
        return self.price(self.gpu_hours(hour))[1]

    @staticmethod
    def hour_cost(lines: dict[tuple, tuple[float, float]]) -> dict[tuple, float]:
        """Billing lines (as :meth:`price` gives them) -> {(cluster, namespace): cost}, tenant namespace or not."""
        out: dict[tuple, float] = {}
        for (cluster, ns, _, _), (_, cost) in lines.items():
            out[(cluster, ns)] = out.get((cluster, ns), 0.0) + cost
        return out

    def hour_costs(self, gpu_hours: dict[tuple, float], energy: dict[tuple, float]) -> dict[tuple, float]:
        """A namespace's cost of an hour from its spoke figures: {(cluster, namespace): its billing lines' cost, plus
        its energy cost when energy.in_budget}."""
        out = self.hour_cost(self.price(gpu_hours)[0])
        if self.model.energy.in_budget:
            for (cluster, ns), (_, cost) in self.energy_lines(energy).items():
                if ns:
                    out[(cluster, ns)] = out.get((cluster, ns), 0.0) + cost
        return out
