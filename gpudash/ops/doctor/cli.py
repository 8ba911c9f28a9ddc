"""check that a live spoke or hub is ready to bill

``python -m gpudash doctor --prometheus-url URL [-c gpudash.yaml] [--role spoke|hub|single] [--format json]``
prints one line per check (ok / warn / fail, what was found, the fix) and exits 1 when a check fails. It only
reads the Prometheus HTTP API.
"""
from __future__ import annotations

import json

from gpudash.model.load import load_model_from_args
from gpudash.ops import doctor
from gpudash.ops.cliargs import add_model_options, add_prometheus_options, prometheus_from_args


def add_arguments(parser) -> None:
    add_model_options(parser)
    parser.add_argument("--prometheus-url", required=True, help="Prometheus, Thanos Querier or the hub's API URL")
    add_prometheus_options(parser, timeout=30)
    parser.add_argument("--role", choices=doctor.ROLES, default="spoke",
                        help="spoke (a managed cluster), hub (ACM hub Thanos), single (one cluster, no ACM)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="one line per check (text) or a JSON document for automation")


def run(args) -> int:
    model = load_model_from_args(args)
    prom = prometheus_from_args(args)
    checks = doctor.run(prom, model, args.role)
    if args.format == "json":
        print(json.dumps([c.__dict__ for c in checks], indent=2))
    else:
        print("\n".join(c.line() for c in checks))
    return 1 if any(c.status == doctor.FAIL for c in checks) else 0
