"""Command line: argument parsing, dispatch, and the mapping of errors to exit codes.

Exit codes: 0 ok; 1 ``render --check`` found drift or tests failed; 2 bad input (one line on stderr).
"""
from __future__ import annotations

import argparse
import importlib
import sys
import tempfile

from gpudash.errors import GpudashError

# Subcommands implemented in other modules: name -> module with add_arguments(parser) and run(args) -> int.
EXTERNAL_COMMANDS: dict[str, str] = {"report": "gpudash.report.cli"}
EXTERNAL_COMMANDS["grafana-bootstrap"] = "gpudash.grafana.bootstrap"
EXTERNAL_COMMANDS["mock"] = "gpudash.mock.cli"


def _load(args):
    from gpudash.model import load_model, resolve_model_path

    return load_model(resolve_model_path(args.config))


def _generate(model):
    from gpudash import artifacts

    return artifacts.generate(model)


def cmd_render(args) -> int:
    from gpudash import artifacts, writer

    files = _generate(_load(args))
    for note in artifacts.size_notes(files):
        print(f"gpudash: {note}", file=sys.stderr)
    plan = writer.plan(args.output, files)
    if args.check:
        drift = plan.changed() + plan.stale()
        if drift:
            print(writer.diff(plan), end="")
            print(f"gpudash: {len(drift)} file(s) would change in {args.output}: {', '.join(drift)}", file=sys.stderr)
            return 1
        print(f"gpudash: {args.output} is up to date ({len(plan.files)} files)")
        return 0
    kept = writer.apply(plan)
    for rel in kept:
        print(f"gpudash: kept {rel}: no longer generated but edited by hand; remove it yourself", file=sys.stderr)
    print(f"gpudash: wrote {len(plan.files)} files to {args.output}")
    return 0


def cmd_validate(args) -> int:
    model = _load(args)
    files = _generate(model)
    print(f"gpudash: {model.source} is valid ({len(model.gpu_classes)} GPU classes, {len(model.tenants)} tenants, "
          f"{len(files)} artifacts)")
    return 0


def cmd_test(args) -> int:
    from gpudash import writer
    from gpudash.golden.runner import report, run_promtool_tests

    if args.output:
        return report(run_promtool_tests(args.output, jobs=args.jobs))
    with tempfile.TemporaryDirectory(prefix="gpudash-test-") as tmp:
        writer.apply(writer.plan(tmp, _generate(_load(args))))
        return report(run_promtool_tests(tmp, jobs=args.jobs))


def cmd_schema(args) -> int:
    import json

    from gpudash.model import json_schema

    print(json.dumps(json_schema(), indent=2, sort_keys=True))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gpudash", description="GPU metering and billing as code.")
    sub = parser.add_subparsers(dest="command", required=True)

    def with_config(p):
        p.add_argument("-c", "--config", help="model file (default: ./gpudash.yaml, else the bundled example)")
        return p

    p = with_config(sub.add_parser("render", help="write (or --check) every artifact"))
    p.add_argument("-o", "--output", default=".", help="output folder (default: current folder)")
    p.add_argument("--check", action="store_true", help="exit 1 with a diff when the output would change")
    p.set_defaults(func=cmd_render)
    p = with_config(sub.add_parser("validate", help="validate the model and every generated expression"))
    p.set_defaults(func=cmd_validate)
    p = with_config(sub.add_parser("test", help="run the golden promtool tests"))
    p.add_argument("-o", "--output", help="a rendered folder (default: render the model into a temp folder)")
    p.add_argument("-j", "--jobs", type=int, default=None, help="parallel promtool runs (default: CPU count)")
    p.set_defaults(func=cmd_test)
    sub.add_parser("schema", help="print the JSON Schema of the model").set_defaults(func=cmd_schema)
    for name, module in EXTERNAL_COMMANDS.items():
        mod = importlib.import_module(module)
        p = sub.add_parser(name, help=mod.__doc__.splitlines()[0])
        mod.add_arguments(p)
        p.set_defaults(func=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.func(args)
    except GpudashError as err:
        print(f"gpudash: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        return 130
