"""Scale down workloads whose GPUs the hub records as idle (dry-run by default; needs gpudash[prune])."""
from __future__ import annotations

import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import cast

from gpudash.base.errors import GpudashError
from gpudash.model.durations import parse_duration
from gpudash.model.types import IDLE_WINDOW, PRUNE_CHECK_INTERVAL, PRUNE_MAX_ACTIONS, PRUNE_RUN_MODES
from gpudash.ops.cliargs import add_token_option
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
    p.add_argument("--idle-window", default=IDLE_WINDOW, help="the model's alerts.idle.window, for Event messages")
    p.add_argument("--cluster", help="required: the name (cluster label) of the cluster whose API this pruner talks "
                                     "to; rows of any other cluster are refused")
    p.add_argument("--single-cluster", action="store_true",
                   help="also accept rows without a cluster label (the cluster's own Prometheus, not the hub)")
    p.add_argument("--tenant-namespace", action="append", default=[], metavar="NS",
                   help="required, repeatable: a tenant namespace the pruner may act in (the model's tenants); "
                        "never openshift-*, kube-*, default or its own namespace")
    p.add_argument("--model", default=".*", help="GPU models to act on (regex on gpu_model, anchored)")
    p.add_argument("--max-actions", type=int, default=PRUNE_MAX_ACTIONS,
                   help=f"most workloads stopped per cycle (default {PRUNE_MAX_ACTIONS})")
    p.add_argument("--effect-timeout", default="10m",
                   help="time a stop has to free its GPUs before it is marked ineffective (default 10m)")
    p.add_argument("--currency", default="USD", help="currency of the cost series, for Event messages")
    p.add_argument("--push-interval", default="5m", help="the model's billing.mco_interval (freshness of reads)")
    p.add_argument("--prometheus-url", help="hub (Thanos Querier) or cluster Prometheus URL")
    add_token_option(p, "--prometheus-token", ", else the in-cluster service account token")
    p.add_argument("--ca-file", help="CA bundle for the Prometheus URL")
    p.add_argument("--timeout", default="30s", help="deadline of each Prometheus query (default 30s)")
    p.add_argument("--kubeconfig", help="kubeconfig file (default: in-cluster config in a pod, else ~/.kube/config)")
    p.add_argument("--api-timeout", default="10s", help="deadline of each Kubernetes API call (default 10s)")
    p.add_argument("--metrics-port", type=int, default=0,
                   help="with --daemon: serve the gpudash_prune_ineffective_stop gauge on this port (0: off)")
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


def _scope(args):
    from gpudash.queries import prune_plan as plan

    if not args.cluster:
        raise GpudashError("--cluster is required: the name of the cluster whose API this pruner talks to (the "
                           "idle rows of every other cluster name pods it must not touch)")
    if not args.tenant_namespace:
        raise GpudashError("--tenant-namespace is required (repeat it): the model's tenant namespaces the pruner "
                           "may act in")
    own = os.environ.get(plan.POD_NAMESPACE_ENV, "")
    scope = plan.Scope(args.cluster, frozenset(args.tenant_namespace), own, args.single_cluster)
    for ns in args.tenant_namespace:
        refused = scope.namespace_refusal(ns)
        if refused:
            raise GpudashError(f"--tenant-namespace {ns}: {refused}")
    return scope


def _serve_metrics(port: int, pruner) -> None:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            body = pruner.metrics().encode()
            self.send_response(200 if self.path == "/metrics" else 404)
            self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):  # the JSON lines on stdout are the log
            pass

    server = ThreadingHTTPServer(("", port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()


def run(args) -> int:
    from gpudash.ops.prometheus_client import Prometheus
    from gpudash.ops.prune import api as kube  # the kubernetes client: a missing prune extra is reported by the CLI
    from gpudash.ops.prune import cycle
    from gpudash.queries import prune_plan as plan

    client = kube.connect(args.kubeconfig, _seconds("--api-timeout", args.api_timeout) or kube.TIMEOUT)
    if args.restore:
        cycle.restore(client, args.restore)
        return 0
    if not args.prometheus_url:
        raise GpudashError("--prometheus-url is required (the hub's Thanos Querier or the cluster's Prometheus)")
    if args.max_actions < 0:
        raise GpudashError(f"--max-actions {args.max_actions}: must be 0 or more")
    scope = _scope(args)
    interval, duration = _seconds("--check-interval", args.check_interval), _seconds("--duration", args.duration)
    fresh = read.fresh_seconds(_seconds("--push-interval", args.push_interval))
    prom = Prometheus(args.prometheus_url, token=_token(args), ca_file=args.ca_file,
                      timeout=_seconds("--timeout", args.timeout) or 30)
    opts = cycle.Options(args.run_mode, args.max_actions, _seconds("--idle-window", args.idle_window) + duration,
                         args.currency, _seconds("--effect-timeout", args.effect_timeout))
    cluster = None if args.single_cluster else args.cluster
    idle_q = plan.idle_query(fresh, cluster, gpu_model=args.model, duration=duration)
    unobserved_q = plan.unobserved_query(fresh, cluster)
    busy_q = plan.busy_workloads_query(fresh)
    when = {"now": args.time or time.time()}

    def idle_rows() -> list[plan.IdlePod]:
        busy = {tuple(lb.get(k, "") for k in BUSY_KEYS) for lb, _ in prom.query(busy_q, when["now"])}
        return [plan.IdlePod(lb.get("cluster"), lb.get("namespace"), lb.get("pod"), v,
                             tuple(lb.get(k, "") for k in BUSY_KEYS) in busy)
                for lb, v in prom.query(idle_q, when["now"])]

    def recheck(ns: str) -> set[str]:
        """The pods of ``ns`` on this cluster recorded idle (and of no busy workload) now: read again at action
        time (a replay re-reads its --time)."""
        if args.time is None:
            when["now"] = time.time()
        in_scope = [p for p in idle_rows() if p.namespace == ns and not p.busy_siblings and scope.refusal(p) is None]
        return {cast(str, p.pod) for p in in_scope}  # a row in scope names its pod (Scope.refusal)

    pruner = cycle.Pruner(client, scope, opts, recheck, sys.stdout)
    if args.daemon and args.metrics_port:
        _serve_metrics(args.metrics_port, pruner)
    done = 0
    while True:
        started = time.monotonic()
        try:
            when["now"] = args.time or time.time()
            unobserved = [(lb.get("namespace"), lb.get("pod")) for lb, _ in prom.query(unobserved_q, when["now"])]
            pruner.cycle(idle_rows(), unobserved)
        except Exception as err:  # noqa: BLE001 - a daemon outlives one bad cycle: one line, then the next cycle
            said = str(err) if isinstance(err, GpudashError) else f"unexpected {type(err).__name__}: {err}"
            if not args.daemon:
                raise GpudashError(f"prune cycle failed: {said}") from None
            cycle.log(sys.stdout, mode=args.run_mode, result="error", cluster=scope.cluster, error=said)
        done += 1
        if not args.daemon or (args.cycles and done >= args.cycles):
            return 0
        time.sleep(max(0.0, started + interval - time.monotonic()))
