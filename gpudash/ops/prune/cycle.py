"""Pruner cycles: idle rows from Prometheus, scoped to this cluster's tenant namespaces, their owners re-verified on
the cluster right before one action (or dry-run line) per owner, and each stop's effect proven on later cycles.

Every action, refusal, skip and API error is one JSON line on stdout (same keys in dry-run and scale-down, so a
dry run shows exactly what a real run would do); an API error ends that owner's action, never the cycle.
"""
from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import cast

from gpudash.base.errors import GpudashError
from gpudash.model import alert_names as an
from gpudash.model.durations import format_duration
from gpudash.ops.prune.api import Api, ApiError, Owners
from gpudash.queries import prune_plan as plan

EFFECT_TIMEOUT = 600  # seconds a stop has to free the GPUs before it is marked ineffective (--effect-timeout)
Recheck = Callable[[str], set[str]]  # namespace -> pods of this cluster recorded idle there now
Key = tuple[str, str, str]  # (kind, namespace, name)


@dataclass
class Options:
    run_mode: str  # "dry-run" or "scale-down"
    max_actions: int
    idle_for: int  # seconds: the model's idle window plus --duration, for messages
    currency: str
    effect_timeout: int = EFFECT_TIMEOUT


def log(out, **fields) -> None:
    line = {"time": _stamp(time.time()), **fields}
    print(json.dumps(line, sort_keys=True), file=out, flush=True)


def _stamp(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_stamp(text) -> float | None:
    try:
        return datetime.strptime(str(text), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()
    except ValueError:
        return None


def _annotations(obj: dict) -> dict:
    return obj["metadata"].get("annotations") or {}


@dataclass
class Pruner:
    """One pruner's state across cycles: stops whose effect is not proven yet, and stops found ineffective (the
    ``gpudash_prune_ineffective_stop`` gauge, :meth:`metrics`)."""
    api: Api
    scope: plan.Scope
    opts: Options
    recheck: Recheck
    out: object = sys.stdout
    clock: Callable[[], float] = time.time
    pending: dict[Key, float] = field(default_factory=dict)  # stopped at (Unix time)
    ineffective: set[Key] = field(default_factory=set)
    counts: dict[str, int] = field(default_factory=dict)

    def record(self, result: str, **fields) -> None:
        self.counts[result] = self.counts.get(result, 0) + 1
        log(self.out, mode=self.opts.run_mode, result=result, cluster=self.scope.cluster, **fields)

    # --- one cycle --------------------------------------------------------------------------------------------
    def cycle(self, idle: list[plan.IdlePod], unobserved: list[tuple[str | None, str | None]]) -> dict[str, int]:
        """Prove earlier stops, then act on the owners of ``idle`` rows in scope; returns counts by result."""
        self.counts = {}
        for key in sorted(self.pending):
            self._prove(key)
        for key in sorted(self.ineffective):
            self._still_ineffective(key)
        for ns, pod in unobserved:
            if self.scope.namespace_refusal(ns) is None:
                self.record("skipped", namespace=ns, pod=pod, reason="no recent GPU activity samples: missing "
                            "metrics are never idleness")
        owners: dict[Key, list] = {}
        resolver = Owners(self.api)
        listed: dict[str, dict[str, dict] | ApiError] = {}  # a namespace's pods by name, or why they are unknown
        for p in idle:
            refused = self.scope.refusal(p)
            if refused:
                self.record("refused", row_cluster=p.cluster, namespace=p.namespace, pod=p.pod, reason=refused)
                continue
            ns = cast(str, p.namespace)  # a row in scope names its namespace and pod (Scope.refusal)
            try:
                if ns not in listed:  # once per namespace and cycle, a failure too (no N timeouts)
                    try:
                        listed[ns] = {x["metadata"].get("name"): x for x in self.api.pods(ns)}
                    except ApiError as err:
                        listed[ns] = err
                pods_of_ns = listed[ns]
                if isinstance(pods_of_ns, ApiError):
                    raise pods_of_ns
                found = pods_of_ns.get(cast(str, p.pod))
                if found is None:
                    self.record("skipped", namespace=ns, pod=p.pod, reason="no such pod on this cluster")
                    continue
                kind, obj = resolver.root(found)
            except ApiError as err:
                self.record("error", namespace=ns, pod=p.pod, error=str(err))
                continue
            entry = owners.setdefault((kind.name, ns, obj["metadata"]["name"]), [kind, obj, [], 0.0, False])
            entry[2].append(p.pod)
            entry[3] += p.cost_per_hour
            entry[4] |= p.busy_siblings
        actions = 0
        for key, (kind, obj, pods, cost, busy) in sorted(owners.items()):
            fields = dict(namespace=key[1], kind=kind.name, name=key[2], pods=sorted(pods),
                          idle_for=format_duration(self.opts.idle_for), cost_per_hour=_rounded(cost),
                          currency=self.opts.currency)
            if kind.how == "report":
                self.record("reported", **fields, reason=f"a {kind.name} is never stopped by the pruner")
                continue
            try:
                reason = self._skip(key, kind, obj, busy)
                if reason is None and actions >= self.opts.max_actions:
                    reason = f"--max-actions {self.opts.max_actions} reached this cycle"
                if reason is None:
                    reason, obj = self._verify(key, kind, obj, pods)
                if reason:
                    self.record("skipped", **fields, reason=reason)
                    continue
                actions += 1
                self._act(key, kind, obj, pods, cost, fields)
            except ApiError as err:
                self.record("error", **fields, error=str(err))
        return self.counts

    # --- decisions --------------------------------------------------------------------------------------------
    def _skip(self, key: Key, kind: plan.Kind, obj: dict, busy: bool) -> str | None:
        annotations = _annotations(obj)
        if plan.INEFFECTIVE in annotations:
            self.ineffective.add(key)
            return (f"its stop at {annotations.get(plan.PRUNED_AT, '?')} did not free the GPUs (marked "
                    f"{plan.INEFFECTIVE}): never retried; see {an.PRUNER_INEFFECTIVE}")
        since = self.pending.get(key) or _parse_stamp(annotations.get(plan.PRUNED_AT))
        if since is not None:  # stopped by the pruner, not yet proven (even if scaled back up since): never twice
            if key not in self.pending:  # by an earlier run of the pruner: prove it now
                self.pending[key] = since
                self._prove(key)
            return f"stopped by gpudash prune at {_stamp(since)}: its effect is being checked"
        if busy:
            return "other pods of it still use their GPUs"
        if plan.stopped(kind, obj):
            return "already stopped, not by gpudash prune"
        if annotations.get(plan.OPT_OUT) == "false":
            return f"{kind.name} annotated {plan.OPT_OUT}=false"
        if self.api.namespace_annotations(key[1]).get(plan.OPT_OUT) == "false":
            return f"namespace annotated {plan.OPT_OUT}=false"
        if kind.how == "scale":
            for hpa in self.api.autoscalers(key[1]):
                ref = (hpa.get("spec") or {}).get("scaleTargetRef") or {}
                if (ref.get("kind"), ref.get("name")) == (kind.name, key[2]):
                    return (f"managed by HorizontalPodAutoscaler {hpa['metadata'].get('name')}: its replicas are "
                            "the autoscaler's")
        return None

    def _gpu_pods(self, key: Key, resolver: Owners, pods: list[dict]) -> dict[str, dict]:
        """The pods of ``pods`` that hold GPUs (requested, not Succeeded or Failed) and whose owner chain ends at
        ``key``."""
        out = {}
        for pod in pods:
            phase = (pod.get("status") or {}).get("phase")
            if phase in ("Succeeded", "Failed") or not plan.gpu_requests(pod):
                continue
            kind, obj = resolver.root(pod)
            if (kind.name, key[1], obj["metadata"].get("name")) == key:
                out[pod["metadata"]["name"]] = pod
        return out

    def _verify(self, key: Key, kind: plan.Kind, obj: dict, rows: list[str]) -> tuple[str | None, dict]:
        """Right before acting, on the cluster: the owner is the one read (same uid) and not stopped; every pod of
        the rows exists, is Running, requests GPUs and still belongs to it; every GPU pod of it is recorded idle
        now (re-queried). Returns (why not, None) or (None, the fresh object)."""
        ns, name = key[1], key[2]
        fresh = self.api.get(kind, ns, name)
        if fresh["metadata"].get("uid") != obj["metadata"].get("uid"):
            return f"re-check: {kind.name} {name} was replaced since it was read", obj
        if plan.stopped(kind, fresh):
            return "re-check: stopped meanwhile", obj
        resolver = Owners(self.api)
        listed = self.api.pods(ns)
        gpu = self._gpu_pods(key, resolver, listed)
        by_name = {p["metadata"].get("name"): p for p in listed}
        for pod in sorted(rows):
            if pod not in by_name:
                return f"re-check: pod {pod} no longer exists", obj
            phase = (by_name[pod].get("status") or {}).get("phase")
            if phase != "Running":
                return f"re-check: pod {pod} is {phase or 'of no phase'}, not Running", obj
            if not plan.gpu_requests(by_name[pod]):
                return f"re-check: pod {pod} requests no GPU", obj
            if pod not in gpu:
                return f"re-check: pod {pod} no longer belongs to {kind.name} {name}", obj
        busy = sorted(set(gpu) - self.recheck(ns))
        if busy:
            return f"re-check: GPU pods {', '.join(busy)} of it are not recorded idle now", obj
        return None, fresh

    # --- actions ----------------------------------------------------------------------------------------------
    def _act(self, key: Key, kind: plan.Kind, obj: dict, pods: list[str], cost: float, fields: dict) -> None:
        ns, name = key[1], key[2]
        before = self.api.scale(kind, ns, name)["spec"].get("replicas", 0) if kind.how == "scale" else len(pods)
        action = "scale-down" if kind.how == "scale" else "stop"
        fields = {**fields, "action": action, "replicas_before": before, "replicas_after": 0}
        if self.opts.run_mode == "dry-run":
            self.record("dry-run", **fields)
            return
        now = self.clock()
        marks = {plan.PRUNED_AT: _stamp(now)}
        if kind.how == "annotation":
            marks[kind.stop_annotation] = _stamp(now) if kind.name == "Notebook" else "true"
            self.api.annotate(kind, ns, name, marks, obj["metadata"]["resourceVersion"])
            detail = f"annotated {kind.stop_annotation}"
        else:
            patched = self.api.annotate(kind, ns, name, {**marks, plan.PREVIOUS_REPLICAS: str(before)},
                                        obj["metadata"]["resourceVersion"])
            self.api.set_replicas(kind, ns, name, 0, patched["metadata"]["resourceVersion"])
            detail = f"scaled from {before} to 0 replicas"
        self.pending[key] = now
        message = plan.event_message(kind.name, name, format_duration(self.opts.idle_for), cost, self.opts.currency,
                                     pods)
        self.api.event(kind, obj, plan.REASON, message, action)
        self.record("stopped", **fields, detail=detail)

    def _prove(self, key: Key) -> None:
        """A stop's effect: its GPU pods gone (``released``), else after ``effect_timeout`` marked ineffective
        (annotation, Warning Event, the gauge) and never retried."""
        kind, ns, name = plan.KINDS[key[0]], key[1], key[2]
        since = self.pending[key]
        fields = dict(namespace=ns, kind=kind.name, name=name, stopped_at=_stamp(since))
        try:
            left = self._gpu_pods(key, Owners(self.api), self.api.pods(ns))
            if not left:  # proven: the mark goes, so a workload its owner starts again is a candidate again
                self.api.annotate(kind, ns, name, {plan.PRUNED_AT: None})
                del self.pending[key]
                self.record("released", **fields, detail="its GPU pods are gone: the GPUs are free")
                return
            waited = self.clock() - since
            if waited < self.opts.effect_timeout:
                self.record("waiting", **fields, pods=sorted(left),
                            reason=f"its GPU pods are still there after {format_duration(int(waited))} (limit "
                                   f"{format_duration(self.opts.effect_timeout)})")
                return
            obj = self.api.get(kind, ns, name)
            self.api.annotate(kind, ns, name, {plan.INEFFECTIVE: _stamp(self.clock())},
                              obj["metadata"]["resourceVersion"])
            message = plan.ineffective_message(kind.name, name, _stamp(since), format_duration(int(waited)), left)
            self.api.event(kind, obj, plan.REASON_INEFFECTIVE, message, "stop", warning=True)
            del self.pending[key]
            self.ineffective.add(key)
            self.record("ineffective", **fields, pods=sorted(left), reason=message)
        except ApiError as err:
            self.record("error", **fields, error=str(err))

    def _still_ineffective(self, key: Key) -> None:
        """Drop a workload from the gauge once restored (the mark removed), deleted, or its GPU pods gone."""
        kind, ns, name = plan.KINDS[key[0]], key[1], key[2]
        try:
            obj = self.api.get(kind, ns, name)
            if plan.INEFFECTIVE in _annotations(obj) and self._gpu_pods(key, Owners(self.api), self.api.pods(ns)):
                return
        except ApiError as err:
            if err.status != 404:
                self.record("error", namespace=ns, kind=kind.name, name=name, error=str(err))
                return
        self.ineffective.discard(key)

    def metrics(self) -> str:
        """The Prometheus text exposition of the ineffective stops (prometheus/docs content/docs/instrumenting/
        exposition_formats.md: label values escape backslash, double quote and line feed)."""
        def esc(v: str) -> str:
            return v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")

        lines = [f"# HELP {an.PRUNE_INEFFECTIVE} 1 for each workload whose stop by gpudash prune did not free "
                 "its GPUs.", f"# TYPE {an.PRUNE_INEFFECTIVE} gauge"]
        lines += [f'{an.PRUNE_INEFFECTIVE}{{namespace="{esc(ns)}",kind="{esc(k)}",workload="{esc(n)}"}} 1'
                  for k, ns, n in sorted(self.ineffective)]
        return "\n".join(lines) + "\n"


def _rounded(cost: float) -> float | None:
    return round(cost, 6) if plan.money(cost) != "an unknown amount" else None


def restore(api: Api, target: str, out=sys.stdout) -> None:
    """Undo a stop: NAMESPACE/KIND/NAME back to its recorded replicas, or its stop annotation removed; the
    pruner's marks are removed last, so a failure leaves them for a retry."""
    parts = target.split("/")
    if len(parts) != 3 or parts[1] not in plan.KINDS or plan.KINDS[parts[1]].how == "report":
        stoppable = ", ".join(k for k, v in plan.KINDS.items() if v.how != "report")
        raise GpudashError(f"--restore {target!r}: expected NAMESPACE/KIND/NAME with KIND one of {stoppable}")
    ns, kind, name = parts[0], plan.KINDS[parts[1]], parts[2]
    marks = {plan.PRUNED_AT: None, plan.INEFFECTIVE: None}
    try:
        obj = api.get(kind, ns, name)
        if kind.how == "annotation":
            api.annotate(kind, ns, name, {kind.stop_annotation: None, **marks})
            detail = f"removed {kind.stop_annotation}"
        else:
            previous = _annotations(obj).get(plan.PREVIOUS_REPLICAS)
            if previous is None:
                raise GpudashError(f"--restore {target}: no {plan.PREVIOUS_REPLICAS} annotation: not stopped by "
                                   "gpudash prune")
            if not (str(previous).isascii() and str(previous).isdecimal() and len(str(previous)) <= 9):
                raise GpudashError(f"--restore {target}: {plan.PREVIOUS_REPLICAS} is {str(previous)[:40]!r}, not a "
                                   "replica count: left as it is; scale it by hand")
            api.set_replicas(kind, ns, name, int(previous), obj["metadata"]["resourceVersion"])
            api.annotate(kind, ns, name, {plan.PREVIOUS_REPLICAS: None, **marks})
            detail = f"scaled to {int(previous)} replicas"
    except ApiError as err:
        raise GpudashError(f"--restore {target}: {err}") from None
    log(out, mode="restore", result="restored", namespace=ns, kind=kind.name, name=name, detail=detail)
