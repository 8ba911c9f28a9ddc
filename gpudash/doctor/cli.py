"""check that a live spoke or hub is ready to bill

``python -m gpudash doctor --prometheus-url URL [-c gpudash.yaml] [--role spoke|hub|single] [--format json]``
prints one line per check (ok / warn / fail, what was found, the fix) and exits 1 when a check fails. It only
reads the Prometheus HTTP API.
"""
from __future__ import annotations

import json

from gpudash import doctor
from gpudash.cliargs import add_model_options, add_token_option, load_model_from_args
from gpudash.report.client import Prometheus


def add_arguments(parser) -> None:
    add_model_options(parser)
    parser.add_argument("--prometheus-url", required=True, help="Prometheus, Thanos Querier or the hub's API URL")
    add_token_option(parser)
    parser.add_argument("--ca-file", help="CA bundle of the server certificate")
    parser.add_argument("--insecure-skip-verify", action="store_true", help="skip TLS verification (tests only)")
    parser.add_argument("--role", choices=doctor.ROLES, default="spoke",
                        help="spoke (a managed cluster), hub (ACM hub Thanos), single (one cluster, no ACM)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="one line per check (text) or a JSON document for automation")


def run(args) -> int:
    model = load_model_from_args(args)
    prom = Prometheus(args.prometheus_url, token=args.token, ca_file=args.ca_file,
                      insecure_skip_verify=args.insecure_skip_verify)
    checks = doctor.run(prom, model, args.role)
    if args.format == "json":
        print(json.dumps([c.__dict__ for c in checks], indent=2))
    else:
        print("\n".join(c.line() for c in checks))
    return 1 if any(c.status == doctor.FAIL for c in checks) else 0
