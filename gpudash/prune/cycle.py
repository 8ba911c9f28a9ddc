"""One pruner cycle: idle pods from Prometheus, their owners, one action (or dry-run line) per owner.

Every action, skip and API error is one JSON line on stdout (same keys in dry-run and scale-down, so a dry run
shows exactly what a real run would do); an API error ends that owner's action, never the cycle.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from datetime import UTC, datetime

from gpudash.promql import build as q
from gpudash.prune import plan
from gpudash.prune.api import Api, ApiError, root


@dataclass
class Options:
    run_mode: str  # "dry-run" or "scale-down"
    max_actions: int
    idle_for: int  # seconds: the model's idle window plus --duration, for messages
    currency: str


def log(out, **fields) -> None:
    line = {"time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), **fields}
    print(json.dumps(line, sort_keys=True), file=out, flush=True)


def _opted_out(api: Api, kind, obj, ns: str) -> str | None:
    if (obj["metadata"].get("annotations") or {}).get(plan.OPT_OUT) == "false":
        return f"{kind.name} annotated {plan.OPT_OUT}=false"
    if api.namespace_annotations(ns).get(plan.OPT_OUT) == "false":
        return f"namespace annotated {plan.OPT_OUT}=false"
    return None


def _stop(api: Api, kind, obj) -> str:
    """Stop ``obj``; returns what was done. The previous replica count is recorded before scaling."""
    ns, name = obj["metadata"]["namespace"], obj["metadata"]["name"]
    if kind.how == "annotation":
        api.annotate(kind, ns, name, {kind.stop_annotation: _stop_value(kind)}, obj["metadata"]["resourceVersion"])
        return f"annotated {kind.stop_annotation}"
    replicas = api.scale(kind, ns, name)["spec"].get("replicas", 0)
    patched = api.annotate(kind, ns, name, {plan.PREVIOUS_REPLICAS: str(replicas)},
                           obj["metadata"]["resourceVersion"])
    api.set_replicas(kind, ns, name, 0, patched["metadata"]["resourceVersion"])
    return f"scaled from {replicas} to 0 replicas"


def _stop_value(kind) -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if kind.name == "Notebook" else "true"


def _stopped(kind, obj) -> bool:
    annotations = obj["metadata"].get("annotations") or {}
    if kind.how == "annotation":
        return kind.stop_annotation in annotations and annotations[kind.stop_annotation] != "false"
    return obj.get("spec", {}).get("replicas") == 0


def run_cycle(api: Api, idle: list[plan.IdlePod], unobserved: list[tuple[str, str]], opts: Options,
              out=sys.stdout) -> dict[str, int]:
    """Act on the owners of ``idle`` pods (one cluster's); returns counts by result."""
    counts: dict[str, int] = {}

    def record(result: str, **fields):
        counts[result] = counts.get(result, 0) + 1
        log(out, mode=opts.run_mode, result=result, **fields)

    for ns, pod in unobserved:
        record("skipped", namespace=ns, pod=pod, reason="no recent GPU activity samples: missing metrics are never "
               "idleness")
    owners: dict[tuple, list] = {}
    for p in idle:
        try:
            kind, obj = root(api, p.namespace, p.pod)
        except ApiError as err:
            record("error", namespace=p.namespace, pod=p.pod, error=str(err))
            continue
        key = (kind.name, p.namespace, obj["metadata"]["name"])
        owners.setdefault(key, [kind, obj, [], 0.0, False])
        owners[key][4] |= p.busy_siblings
        owners[key][2].append(p.pod)
        owners[key][3] += p.cost_per_hour
    actions = 0
    for (_, ns, name), (kind, obj, pods, cost, busy) in sorted(owners.items()):
        fields = dict(namespace=ns, kind=kind.name, name=name, pods=sorted(pods), idle_for=q.duration(opts.idle_for),
                      cost_per_hour=round(cost, 6), currency=opts.currency)
        try:
            if kind.how == "report":
                record("reported", **fields, reason=f"a {kind.name} is never stopped by the pruner")
                continue
            if busy:
                record("skipped", **fields, reason="other pods of it still use their GPUs")
                continue
            if _stopped(kind, obj):
                record("skipped", **fields, reason="already stopped")
                continue
            opted_out = _opted_out(api, kind, obj, ns)
            if opted_out:
                record("skipped", **fields, reason=opted_out)
                continue
            if actions >= opts.max_actions:
                record("skipped", **fields, reason=f"--max-actions {opts.max_actions} reached this cycle")
                continue
            actions += 1
            action = "scale-down" if kind.how == "scale" else "stop"
            if opts.run_mode == "dry-run":
                record("dry-run", **fields, action=action)
                continue
            done = _stop(api, kind, obj)
            message = plan.event_message(kind.name, name, q.duration(opts.idle_for), cost, opts.currency, pods)
            api.event(kind, obj, plan.REASON, message, action)
            record("stopped", **fields, action=action, detail=done)
        except ApiError as err:
            record("error", **fields, error=str(err))
    return counts


def restore(api: Api, target: str, out=sys.stdout) -> None:
    """Undo a stop: NAMESPACE/KIND/NAME back to its recorded replicas, or its stop annotation removed."""
    from gpudash.errors import GpudashError

    parts = target.split("/")
    if len(parts) != 3 or parts[1] not in plan.KINDS or plan.KINDS[parts[1]].how == "report":
        stoppable = ", ".join(k for k, v in plan.KINDS.items() if v.how != "report")
        raise GpudashError(f"--restore {target!r}: expected NAMESPACE/KIND/NAME with KIND one of {stoppable}")
    ns, kind, name = parts[0], plan.KINDS[parts[1]], parts[2]
    try:
        obj = api.get(kind, ns, name)
        if kind.how == "annotation":
            api.annotate(kind, ns, name, {kind.stop_annotation: None})
            detail = f"removed {kind.stop_annotation}"
        else:
            previous = (obj["metadata"].get("annotations") or {}).get(plan.PREVIOUS_REPLICAS)
            if previous is None:
                raise GpudashError(f"--restore {target}: no {plan.PREVIOUS_REPLICAS} annotation: not stopped by "
                                   "gpudash prune")
            patched = api.annotate(kind, ns, name, {plan.PREVIOUS_REPLICAS: None}, obj["metadata"]["resourceVersion"])
            api.set_replicas(kind, ns, name, int(previous), patched["metadata"]["resourceVersion"])
            detail = f"scaled to {previous} replicas"
    except ApiError as err:
        raise GpudashError(f"--restore {target}: {err}") from None
    log(out, mode="restore", result="restored", namespace=ns, kind=kind.name, name=name, detail=detail)

