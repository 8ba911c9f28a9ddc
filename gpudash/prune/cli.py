"""Scale down workloads whose GPUs the hub records as idle (dry-run by default; needs gpudash[prune])."""
from __future__ import annotations

import os
import sys
import time

from gpudash.cliargs import add_token_option
from gpudash.errors import GpudashError
from gpudash.model.load import parse_duration
from gpudash.model.types import PRUNE_CHECK_INTERVAL, PRUNE_MAX_ACTIONS, PRUNE_RUN_MODES
from gpudash.promql import read

BUSY_KEYS = ("cluster", "namespace", "workload", "workload_type")
SA_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token"


def add_arguments(p) -> None:
    p.add_argument("--run-mode", choices=PRUNE_RUN_MODES, default=PRUNE_RUN_MODES[0],
                   help="dry-run (default): log what would be done; scale-down: do it")
    p.add_argument("--daemon", action="store_true", help="run a cycle every --check-interval until stopped")
    p.add_argument("--check-interval", default=PRUNE_CHECK_INTERVAL,
                   help=f"time between cycles in --daemon mode (default {PRUNE_CHECK_INTERVAL})")
    p.add_argument("--cycles", type=int, default=0, help="with --daemon: stop after this many cycles (0: never)")
    p.add_argument("--duration", default="0s",
                   help="extra time a pod must already have been recorded idle (beyond alerts.idle.window)")
    p.add_argument("--idle-window", default="30m", help="the model's alerts.idle.window, for Event messages")
    p.add_argument("--cluster", default=".*", help="cluster label (regex) of the cluster this pruner acts on")
    p.add_argument("--namespace", default=".*", help="namespaces to act on (regex, anchored)")
    p.add_argument("--model", default=".*", help="GPU models to act on (regex on gpu_model, anchored)")
    p.add_argument("--max-actions", type=int, default=PRUNE_MAX_ACTIONS,
                   help=f"most workloads stopped per cycle (default {PRUNE_MAX_ACTIONS})")
    p.add_argument("--currency", default="USD", help="currency of the cost series, for Event messages")
    p.add_argument("--push-interval", default="5m", help="the model's billing.mco_interval (freshness of reads)")
    p.add_argument("--prometheus-url", help="hub (Thanos Querier) or cluster Prometheus URL")
    add_token_option(p, "--prometheus-token", ", else the in-cluster service account token")
    p.add_argument("--ca-file", help="CA bundle for the Prometheus URL")
    p.add_argument("--kubeconfig", help="kubeconfig file (default: in-cluster config in a pod, else ~/.kube/config)")
    p.add_argument("--time", type=float, help="Unix time to read the idle series at (default now; for replays)")
    p.add_argument("--restore", metavar="NAMESPACE/KIND/NAME", help="undo a stop, then exit")


def _token(args) -> str | None:
    if args.prometheus_token:
        return args.prometheus_token
    if os.path.exists(SA_TOKEN):
        with open(SA_TOKEN, encoding="utf-8") as f:
            return f.read().strip()
    return None


def _seconds(flag: str, text: str) -> int:
    try:
        return parse_duration(text)
    except Exception as err:  # noqa: BLE001 - the model's duration parser: any failure is bad input
        raise GpudashError(f"{flag} {text!r}: {err}") from None


def run(args) -> int:
    from gpudash.prune import api as kube  # the kubernetes client: a missing prune extra is reported by the CLI
    from gpudash.prune import cycle, plan
    from gpudash.report.client import Prometheus

    client = kube.connect(args.kubeconfig)
    if args.restore:
        cycle.restore(client, args.restore)
        return 0
    if not args.prometheus_url:
        raise GpudashError("--prometheus-url is required (the hub's Thanos Querier or the cluster's Prometheus)")
    if args.max_actions < 0:
        raise GpudashError(f"--max-actions {args.max_actions}: must be 0 or more")
    interval, duration = _seconds("--check-interval", args.check_interval), _seconds("--duration", args.duration)
    fresh = read.fresh_seconds(_seconds("--push-interval", args.push_interval))
    prom = Prometheus(args.prometheus_url, token=_token(args), ca_file=args.ca_file)
    opts = cycle.Options(args.run_mode, args.max_actions,
                         _seconds("--idle-window", args.idle_window) + duration, args.currency)
    idle_q = plan.idle_query(fresh, args.cluster, args.namespace, args.model, duration)
    unobserved_q = plan.unobserved_query(fresh, args.cluster, args.namespace)
    busy_q = plan.busy_workloads_query(fresh)
    done = 0
    while True:
        started = time.monotonic()
        try:
            now = args.time or time.time()
            busy = {tuple(lb.get(k, "") for k in BUSY_KEYS) for lb, _ in prom.query(busy_q, now)}
            idle = [plan.IdlePod(lb["cluster"], lb["namespace"], lb["pod"], v,
                                 tuple(lb.get(k, "") for k in BUSY_KEYS) in busy)
                    for lb, v in prom.query(idle_q, now)]
            unobserved = [(lb["namespace"], lb["pod"]) for lb, _ in prom.query(unobserved_q, now)]
            cycle.run_cycle(client, idle, unobserved, opts)
        except GpudashError as err:  # Prometheus unreachable or refused: one line, next cycle
            if not args.daemon:
                raise
            cycle.log(sys.stdout, mode=args.run_mode, result="error", error=str(err))
        done += 1
        if not args.daemon or (args.cycles and done >= args.cycles):
            return 0
        time.sleep(max(0.0, started + interval - time.monotonic()))
