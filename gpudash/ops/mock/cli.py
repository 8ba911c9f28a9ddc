"""Synthetic GPU cluster: serve live /metrics, write OpenMetrics history, print the reference bill.

    python -m gpudash mock serve   -f mock.yaml [-c gpudash.yaml] [--port 9400]
    python -m gpudash mock history -f mock.yaml [-c gpudash.yaml] -o DIR [--exporters-days N] [--cluster-label]
    python -m gpudash mock bill    -f mock.yaml [-c gpudash.yaml] [--hours 0:24]

``serve`` answers ``/ksm/metrics``, ``/dcgm/metrics``, ``/amd/metrics`` on 127.0.0.1 (see
gpudash.ops.mock.server) and re-reads the mock file when it changes. ``history`` writes
``DIR/<cluster>/<day>.om`` for ``promtool tsdb create-blocks-from openmetrics`` (one file per UTC day,
timestamps in seconds, ``# EOF``). ``bill`` prints the reference model's hourly GPU-hours and cost per billing
line as CSV: what gpudash's recorded series must show. The mock file format is in gpudash.ops.mock.config.
"""
from __future__ import annotations

import sys
from datetime import UTC

from gpudash.base.errors import GpudashError
from gpudash.model import vendors
from gpudash.model.load import load_model_from_args
from gpudash.ops.cliargs import add_command, add_model_options


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="mock_command", required=True)

    def common(p):
        p.add_argument("-f", "--file", required=True, help="mock file (topology and workload)")
        add_model_options(p)
        return p

    p = common(add_command(sub, "serve", "serve live /metrics on 127.0.0.1",
                           ("gpudash mock serve -f mock.yaml --port 9400",
                            "gpudash mock serve -f mock.yaml -c gpudash.yaml --port 0   # any free port")))
    p.add_argument("--host", default="127.0.0.1", help="listen address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=9400, help="port (default 9400; 0 = any free port)")
    p = common(add_command(sub, "history", "write OpenMetrics history, one file per cluster and UTC day",
                           ("gpudash mock history -f mock.yaml -o history",
                            "gpudash mock history -f mock.yaml -o history --exporters-days 1 --cluster-label")))
    p.add_argument("-o", "--output", required=True, help="output folder")
    p.add_argument("--exporters-days", type=float, default=None,
                   help="write GPU exporter series only for the last N days (default: all)")
    targets = ",".join(("ksm", *(v.source for v in vendors.VENDORS.values())))  # mock.timeline.jobs()
    p.add_argument("--jobs", default=targets, help=f"targets to write (default {targets})")
    p.add_argument("--cluster-label", action="store_true", help="add a cluster label to every series")
    p = common(add_command(sub, "bill", "print the reference model's hourly bill as CSV",
                           ("gpudash mock bill -f mock.yaml",
                            "gpudash mock bill -f mock.yaml --hours 0:24 > bill.csv")))
    p.add_argument("--hours", default=None, help="hour range a:b from the mock start (default: all)")


def _load(args):
    from gpudash.ops.mock import config
    model = load_model_from_args(args)
    return model, config.load(args.file, model)


def run(args) -> int:
    model, mock = _load(args)
    if args.mock_command == "serve":
        from gpudash.ops.mock.server import MockServer
        from gpudash.ops.mock.timeline import paths

        try:
            server = MockServer(args.file, model, args.host, args.port)
        except OSError as err:
            raise GpudashError(f"--port {args.port}: cannot listen on {args.host}:{args.port}: "
                               f"{err.strerror or err} (choose another --port, or 0 for any free port)") from None
        print(f"gpudash mock: serving {mock.source} on http://{server.address} "
              f"({paths()}; clusters {', '.join(mock.scenario.clusters)})",
              file=sys.stderr, flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.httpd.server_close()
        return 0
    if args.mock_command == "history":
        from gpudash.base.progress import Progress
        from gpudash.ops.mock.history import write_history

        exporters_from = 0
        if args.exporters_days is not None:
            exporters_from = max(0, mock.scenario.duration - int(args.exporters_days * 1440))
        try:
            with Progress("mock history") as progress:
                stats = write_history(mock, model, args.output, jobs=tuple(args.jobs.split(",")),
                                      exporters_from=exporters_from, cluster_label=args.cluster_label,
                                      progress=progress)
        except OSError as err:
            raise GpudashError(f"-o {args.output}: cannot write {err.filename or args.output}: "
                               f"{err.strerror or err}") from None
        print(f"gpudash mock: wrote {len(stats.files)} files, {stats.series} series, {stats.samples} samples "
              f"to {args.output} in {stats.seconds:.1f}s")
        return 0
    from gpudash.ops.mock.timeline import FastReference, for_cluster

    lo, hi = 0, mock.scenario.duration // 60
    if args.hours:
        a, _, b = args.hours.partition(":")
        lo, hi = int(a or 0), int(b or hi)
    print("hour_start,cluster,namespace,gpu_class,resource,gpu_hours,cost")
    refs = {c: FastReference(for_cluster(mock.scenario, c), model) for c in mock.scenario.clusters}
    from datetime import datetime

    for h in range(lo, hi):
        when = datetime.fromtimestamp(mock.at(h * 60), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        for c, ref in refs.items():
            for (_, ns, cls, res), (gh, cost) in sorted(ref.billing(h).items()):
                print(f"{when},{c},{ns},{cls},{res},{gh:.6f},{cost:.6f}")
    return 0
