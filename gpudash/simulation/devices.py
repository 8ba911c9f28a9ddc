"""Devices: what the device plugin hands out to each pod of a scenario, which pod a GPU exporter shows on each
device, and each GPU's synthetic power draw and energy counter.
"""
from __future__ import annotations

import bisect
import functools
import itertools
from typing import Protocol

from gpudash.model import vendors
from gpudash.simulation.scenario import Node, Pod, Scenario


def power_watts(utilisation: float) -> float:
    """A synthetic whole GPU's power draw (W) at ``utilisation`` percent (a held device's; 0 when free)."""
    return 60 + 3 * utilisation


MIG_GPU_WATTS = 90  # a MIG GPU's synthetic power draw, whatever its instances do
ENERGY_AT_START = 3.6e6  # joules an energy counter shows at minute 0 (energy since the driver loaded: 1 kWh)


def exporter_visible(held: dict[tuple, tuple[Pod, str]]) -> dict[tuple, tuple[Pod, str]]:
    """The devices of ``held`` a GPU exporter can attribute: those of the containers the pod-resources API lists
    (:meth:`Pod.visible_containers`), not those a regular init container keeps."""
    return {d: h for d, h in held.items() if h[1] in {c.name for c in h[0].visible_containers()}}


def holder_index(held: dict[tuple, tuple[Pod, str]]) -> dict[tuple, tuple[Pod, str]]:
    """{(node, gpu, profile, instance): (pod, container)} the GPU exporter attributes each device of ``held`` to
    (instance 0 for a whole GPU): of a time-sliced device's replicas, the one sorted first (dcgm-exporter's
    default device-to-pod map keeps one pod per device); devices only a regular init container holds are shown
    as free (:func:`exporter_visible`)."""
    out: dict[tuple, tuple[Pod, str]] = {}
    visible = exporter_visible(held)
    for d in sorted(visible, key=str):
        out.setdefault((*d[:3], d[3] if d[2] is not None else 0), visible[d])
    return out


def shown_holders(s: Scenario, minute: int) -> dict[tuple, tuple[Pod, str]]:
    """:func:`holder_index` of the devices held at ``minute``."""
    return _shown(s)[minute]


@functools.cache
def _shown(s: Scenario) -> list[dict[tuple, tuple[Pod, str]]]:
    """:func:`holder_index` per minute, one object per run of minutes with the same devices held (as
    :func:`assignments` gives them)."""
    out: list[dict[tuple, tuple[Pod, str]]] = []
    last = None
    for held in assignments(s):
        out.append(out[-1] if held is last else holder_index(held))
        last = held
    return out


def shown_holder(holders: dict[tuple, tuple[Pod, str]], node: Node, gpu: int, profile: str | None,
                 instance: int) -> tuple[Pod, str] | None:
    """The (pod, container) ``holders`` (a :func:`holder_index`) shows on a device, or None."""
    return holders.get((node.name, gpu, profile, instance if profile is not None else 0))


def gpu_watts(s: Scenario, node: Node, gpu: int, minute: int) -> float:
    """A physical GPU's synthetic power draw (W) at ``minute``: a MIG GPU draws :data:`MIG_GPU_WATTS`, another
    :func:`power_watts` of the utilisation of the pod the exporter shows on it (idle when none)."""
    return _watts(shown_holders(s, minute), node, gpu, minute)


def _watts(holders: dict[tuple, tuple[Pod, str]], node: Node, gpu: int, minute: int) -> float:
    """:func:`gpu_watts` with the minute's :func:`shown_holders` at hand."""
    if node.mig_strategy != "none":
        return MIG_GPU_WATTS
    holder = shown_holder(holders, node, gpu, None, 0)
    return power_watts(holder[0].utilisation_at(minute) if holder else 0.0)


def reloads(s: Scenario, node: Node) -> set[int]:
    """Minutes at which ``node``'s GPU driver reloads (``driver_reload`` faults): its energy counters restart."""
    return {f.at for f in s.faults_of("driver_reload") if f.node in ("", node.name)}


def counter_runs(starts, watts, reset: set[int]) -> tuple[tuple[int, float, float], ...]:
    """A GPU's energy counter (J) as runs of constant power: (first minute, counter there, W) per ``starts[i]``
    (ascending from 0, every minute of ``reset`` among them), the GPU drawing ``watts[i]`` until the next start.
    At minute 0 it shows :data:`ENERGY_AT_START`, each later minute adds its power x 60 s, a reset sets it to 0."""
    out: list[tuple[int, float, float]] = []
    for p, w in zip(starts, watts):
        value = ENERGY_AT_START if not out else out[-1][1] + out[-1][2] * 60 * (p - out[-1][0] - 1) + w * 60
        out.append((p, 0.0 if p in reset else value, w))
    return tuple(out)


def counter_at(runs: tuple[tuple[int, float, float], ...], minute: int) -> float:
    """The counter of :func:`counter_runs` at ``minute``."""
    p, value, watts = runs[bisect.bisect_right(runs, minute, key=lambda r: r[0]) - 1]
    return value + watts * 60 * (minute - p)


class Counter(Protocol):
    """A GPU's energy counter (J) indexed by minute."""

    def __getitem__(self, minute: int, /) -> float: ...


class CounterView:
    """The counter of :func:`counter_runs` indexed by minute, as :func:`energy_counter`'s tuple is."""

    def __init__(self, runs: tuple[tuple[int, float, float], ...]):
        self.runs = runs

    def __getitem__(self, minute: int) -> float:
        return counter_at(self.runs, minute)


@functools.cache
def energy_counter(s: Scenario, node: Node, gpu: int) -> tuple[float, ...]:
    """Per minute, the GPU's energy counter (J) drawing :func:`gpu_watts` (:func:`counter_runs`), reset at every
    ``driver_reload`` of its node: the minute before's counter + this minute's power x 60 s (:func:`counter_runs`
    with a run at every minute; its term for the minutes between two runs is an exact 0.0, left out). The power is
    looked up once per run of minutes it cannot change in (:func:`power_changes`) and the per-minute sums are
    :func:`itertools.accumulate`'s: the same additions in the same order, in C."""
    reset, (starts, joules) = reloads(s, node), _power_runs(s, node, gpu)
    steps: list[float] = []  # per minute 1..duration: its power x 60 s
    for a, b, j in zip(starts, [*starts[1:], s.duration + 1], joules):
        steps.extend([j] * (b - a))
    out = [0.0 if 0 in reset else ENERGY_AT_START]
    first = 1
    for r in [*sorted(r for r in reset if 0 < r <= s.duration), s.duration + 1]:
        run = itertools.accumulate(steps[first:r], initial=out[-1])
        next(run)  # the initial value: minute first - 1's counter, already out
        out.extend(run)
        if r <= s.duration:
            out.append(0.0)  # a reload: the counter restarts from 0
        first = r + 1
    return tuple(out)


@functools.cache
def _power_runs(s: Scenario, node: Node, gpu: int) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """(first minutes, power x 60 s) of the runs of minutes the GPU's power cannot change in (:func:`power_changes`,
    its node's reloads and the minute after each), from minute 0."""
    shown, reset = _shown(s), reloads(s, node)
    starts = (0, *sorted({*power_changes(s), *reset, *(r + 1 for r in reset)} - {0}))
    return starts, tuple(_watts(shown[a], node, gpu, a) * 60 for a in starts)


@functools.cache
def steady_rises(s: Scenario, node: Node, gpu: int) -> tuple[tuple[int, ...], tuple[float, ...]] | None:
    """(first minutes, power x 60 s) of the GPU's runs of power when :func:`energy_counter` rises by exactly that
    much at each minute of a run, so over k minutes of one run by exactly k times it; else None. It does when its
    node never reloads and the counter's start and every run's power x 60 s are whole numbers whose sum over the
    scenario stays below 2**53: each float sum of whole numbers below 2**53 is exact (IEEE 754 doubles hold every
    such integer), so the counter at a minute is its start plus the exact sum of the steps before."""
    starts, watts = _power_runs(s, node, gpu)
    joules = tuple(map(float, watts))  # (a MIG GPU's are ints)
    if reloads(s, node) or not all(j.is_integer() for j in (ENERGY_AT_START, *joules)):
        return None
    ends = (*starts[1:], s.duration + 1)
    top = ENERGY_AT_START + sum(abs(j) * (b - a) for a, b, j in zip(starts, ends, joules))
    return (starts, joules) if top < 2 ** 53 else None


@functools.cache
def shown_changes(s: Scenario) -> tuple[int, ...]:
    """The minutes from which :func:`shown_holders` is another object than the minute before's (the same object:
    the same devices shown)."""
    shown = _shown(s)
    return tuple(k for k in range(1, len(shown)) if shown[k] is not shown[k - 1])


@functools.cache
def power_changes(s: Scenario) -> tuple[int, ...]:
    """The minutes at which some GPU's :func:`_watts`, or what the exporters expose of it (the pod shown on each
    device and its utilisation), may differ from the minute before's: the devices held change (:func:`assignments`
    and :func:`shown_changes` start another object), a pod's utilisation steps, a pod restarts (0 at that minute
    only)."""
    out = set(shown_changes(s))
    for pod in s.pods:
        out.update(at for at, _ in pod.utilisation)
        out.update(m for e in pod.lifecycle if e.restart for m in (e.at, e.at + 1))
    return tuple(sorted(m for m in out if 0 < m <= s.duration))


def devices(node: Node) -> list[tuple[int, str | None, int] | tuple[int, str, int, int]]:
    """(gpu index, MIG profile or None, instance id or replica[, replica]) of every allocatable device."""
    if node.mig_strategy == "none":
        return [(g, None, r) for g in range(node.count) for r in range(node.replicas * node.partitions_per_gpu)]
    return [(g, p, 1 + i, r) for g in range(node.count) for p, n in node.mig_layout for i in range(n)
            for r in range(node.replicas)]


def device_resource(node: Node, profile: str | None) -> str:
    v = vendors.vendor(node.vendor)
    if profile and node.mig_strategy == "mixed":
        return f"{v.mig_resource_prefix}{profile}" + (".shared" if node.replicas > 1 and node.rename_shared else "")
    if node.partition and node.partition_strategy == "mixed":  # the partition's own resource
        return f"{v.domain}/{node.partition}"
    return f"{v.resource}.shared" if node.replicas > 1 and node.rename_shared else v.resource


@functools.cache
def assignments(scenario: Scenario) -> list[dict[tuple, tuple[Pod, str]]]:
    """Per minute: {(node, gpu, profile, instance): (pod, container)}, as the device plugin hands out devices. A
    minute without a pod lifecycle event sees every pod in the state of the minute before (:meth:`Pod.state`), so
    the same devices held: the same object, not computed again."""
    held: dict[str, list[tuple[tuple, str]]] = {}  # pod uid -> [(device, container)]
    pods = {p.uid: p for p in scenario.pods}
    events = {e.at for p in scenario.pods for e in p.lifecycle}
    out: list[dict[tuple, tuple[Pod, str]]] = []
    for minute in range(scenario.duration + 1):
        if out and minute not in events:
            out.append(out[-1])
            continue
        active = {}
        for pod in scenario.pods:
            exists, phase, on = pod.state(minute)
            if exists and phase == "Running" and on:
                active[pod.uid] = (pod, scenario.node(pod.cluster, on))
        for gone in held.keys() - active.keys():
            del held[gone]
        taken = {d for devs in held.values() for d, _ in devs}
        for pod_uid, (pod, node) in active.items():
            if pod_uid in held:
                continue
            free = [(node.name, *d) for d in devices(node) if (node.name, *d) not in taken]
            held[pod_uid] = []
            # the pod holds its effective request: the listed containers' devices, then what a larger init
            # container keeps beyond them (kubelet's device manager reuses init devices for the app containers)
            for res, want in pod.effective().items():
                owners = [(c.name, q) for c in pod.visible_containers() for r, q in c.requests if r == res]
                extra = want - sum(q for _, q in owners)
                if extra > 0:
                    owners.append((next(c.name for c in pod.init_containers
                                        if not c.sidecar and dict(c.requests).get(res) == want), extra))
                for name, q in owners:
                    for dev in [d for d in free if device_resource(node, d[2]) == res][:q]:
                        held[pod_uid].append((dev, name))
                        free.remove(dev)
                        taken.add(dev)
        now = {d: (pods[u], c) for u, devs in held.items() for d, c in devs}
        out.append(out[-1] if out and out[-1] == now else now)  # unchanged: the same object (:func:`_shown`)
    return out
