"""The hourly figures of a single-cluster scenario that do not depend on its cluster's name, computed once for every
reference of the scenario.

The golden emitter builds up to three references of one single-cluster scenario: the hub's, the spoke's own
(without cluster labels) and the scenario moved to another model cluster (gpudash.render.golden.emit). Their
GPU-hours, node maxima, steps observed and kWh per hour are the same figures under another cluster name: the
scenario's pods, nodes, scrapes and faults are, and none of these figures reads the cluster's name. Prices do: the
model prices energy per cluster, so the costs (:meth:`~Reference.hour_costs`, :meth:`~Reference.energy_lines`) are
computed by each reference itself. The figures are shared by the scenario with its cluster's name blanked (its
*shape*) and the model: two scenarios that differ in anything but that name never meet.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from gpudash.model.types import Model
from gpudash.simulation.reference import Reference
from gpudash.simulation.scenario import Scenario

SHARED = ("gpu_hours", "node_max_by_source", "steps_observed", "energy")  # (hour, since) -> figures keyed by cluster


def on_cluster(s: Scenario, cluster: str) -> Scenario:
    """Single-cluster scenario ``s`` on ``cluster`` instead (its pods' uids kept: no hub series carries one)."""
    return dataclasses.replace(s, clusters=(cluster,), nodes=tuple(dataclasses.replace(n, cluster=cluster)
                                                                   for n in s.nodes),
                               pods=tuple(dataclasses.replace(p, cluster=cluster) for p in s.pods))


_STORES: dict[tuple[int, Scenario], tuple[Model, dict]] = {}  # (id of a model, shape): (the model, its figures)


def _figures(shape: Scenario, model: Model) -> dict[tuple, tuple[str, object]]:
    """{(figure, hour, since): (the cluster it was computed on, the figure)} of the scenarios of ``shape`` under
    ``model`` (that very object: models are not hashable)."""
    found = _STORES.get((id(model), shape))
    if found is None or found[0] is not model:
        found = _STORES[(id(model), shape)] = (model, {})
    return found[1]


def forget() -> None:
    """Forget every shape's figures (:func:`~gpudash.simulation.caches.clear_caches`, after each scenario)."""
    _STORES.clear()


class SharedFigures(Reference):
    """A :class:`Reference` whose :data:`SHARED` figures of a single-cluster scenario are read from any reference of
    the same shape and model that computed them first, their cluster renamed; a scenario of several clusters
    computes its own."""

    reads_own_inputs = True  # the figures are Reference's own, so its alike hours hold

    def __init__(self, scenario: Scenario, model: Model, labelled: bool = True):
        super().__init__(scenario, model, labelled)
        self._cluster = scenario.clusters[0]
        alone = (len(scenario.clusters) == 1 and all(n.cluster == self._cluster for n in scenario.nodes)
                 and all(p.cluster == self._cluster for p in scenario.pods))
        self._store = _figures(on_cluster(scenario, ""), model) if alone else None
        self._mine: dict[tuple, Any] = {}  # (figure, hour, since): this reference's, under its cluster

    def gpu_hours(self, hour: int, since: int = 0) -> dict[tuple, float]:  # type: ignore[override]
        return self._shared("gpu_hours", hour, since)

    def node_max_by_source(self, hour: int, since: int = 0) -> dict[tuple, int]:  # type: ignore[override]
        return self._shared("node_max_by_source", hour, since)

    def steps_observed(self, hour: int, since: int = 0) -> int:  # type: ignore[override]
        return self._shared("steps_observed", hour, since)

    def energy(self, hour: int, since: int = 0) -> dict[tuple, float]:  # type: ignore[override]
        return self._shared("energy", hour, since)

    def _shared(self, figure: str, hour: int, since: int) -> Any:
        """Figure ``figure`` of ``hour`` from minute ``since``: this reference's, the shape's renamed to its cluster,
        or computed by :class:`Reference` (and then shared)."""
        key = (figure, hour, since)
        mine = self._mine.get(key)
        if mine is None:
            found = None if self._store is None else self._store.get(key)
            if found is None:
                mine = getattr(Reference, figure)(self, hour, since)
                if self._store is not None:
                    self._store[key] = (self._cluster, mine)
            else:
                mine = _renamed(*found, self._cluster)
            self._mine[key] = mine
        return mine


def _renamed(cluster: str, figures: object, to: str) -> object:
    """``figures`` computed on ``cluster`` as on cluster ``to``: each key's first label (the cluster) renamed; a
    count of steps is any cluster's."""
    if cluster == to or not isinstance(figures, dict):
        return figures
    out = {}
    for key, value in figures.items():
        if key[0] != cluster:
            raise ValueError(f"a {cluster} figure keyed by another cluster: {key}")
        out[(to, *key[1:])] = value
    return out
