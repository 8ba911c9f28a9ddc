"""Command line: argument parsing, dispatch, and the mapping of errors to exit codes.

Exit codes: 0 ok; 1 ``render --check`` found drift or tests failed; 2 bad input (one line on stderr).
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence

from gpudash.base import collector
from gpudash.base.errors import GpudashError
from gpudash.base.layout import DEFAULT_OUTPUT
from gpudash.model.load import load_model_from_args
from gpudash.ops.cliargs import add_command, add_model_options

# Subcommands implemented in other modules: name -> module with add_arguments(parser) and run(args) -> int.
EXTERNAL_COMMANDS: dict[str, str] = {"report": "gpudash.ops.report.cli"}
EXTERNAL_COMMANDS["grafana-bootstrap"] = "gpudash.ops.grafana_bootstrap"
EXTERNAL_COMMANDS["mock"] = "gpudash.ops.mock.cli"
EXTERNAL_COMMANDS["doctor"] = "gpudash.ops.doctor.cli"
EXTERNAL_COMMANDS["prune"] = "gpudash.ops.prune.cli"
EXTERNAL_COMMANDS["demo"] = "gpudash.ops.demo.cli"
EXTERNAL_COMMANDS["preview"] = "gpudash.ops.preview.cli"
# Runtime commands whose packages are an extra (pyproject's optional-dependencies): command -> extra. Their
# modules import these packages only when they run, so --help works without them.
EXTRAS = {"report": "report", "doctor": "report", "demo": "report", "grafana-bootstrap": "bootstrap",
          "prune": "prune", "preview": "report"}
# extra -> the import names of the packages it installs (each the same as its distribution name);
# tests/unit/test_extras.py holds this equal to pyproject's optional-dependencies.
EXTRA_PACKAGES: dict[str, tuple[str, ...]] = {"report": ("requests", "jinja2", "drafthorse", "pikepdf"),
                                              "bootstrap": ("requests",), "prune": ("kubernetes", "requests")}
SCHEMA_FILE = "gpudash.schema.json"  # the name the example's yaml-language-server modeline points at

# Every subcommand's one-line summary and the examples its --help ends with, in the order `gpudash -h` lists them.
HELP: dict[str, tuple[str, tuple[str, ...]]] = {
    "init": ("write ./gpudash.yaml from the annotated example, and its JSON Schema",
             ("gpudash init", "gpudash init -o gitops/billing")),
    "render": ("write (or --check) every artifact: rules, allowlist, alerts, dashboards, golden tests",
               ("gpudash render                      # ./gpudash.yaml into ./gpudash-out",
                "gpudash render --example -o out     # the bundled example",
                "gpudash render -o gitops/gpudash --check   # CI: exit 1 with a diff when the output is stale")),
    "validate": ("validate the model and every generated expression, writing nothing",
                 ("gpudash validate", "gpudash validate -c clusters/prod.yaml")),
    "test": ("run the golden promtool tests of the model (or of a rendered folder)",
             ("gpudash test", "gpudash test -o gitops/gpudash   # the tests committed beside the rules")),
    "schema": ("print the JSON Schema of the model, for editors", ("gpudash schema > gpudash.schema.json",)),
    "report": ("billing statements, the CCSP hourly report and idle GPUs, read from a live Prometheus or Thanos",
               ("export GPUDASH_TOKEN=\"$(oc whoami -t)\"   # the token by environment, never in argv",
                "gpudash report billing --prometheus-url https://rbac-query-proxy.example --start 2026-10-01T00:00:00Z "
                "--end 2026-11-01T00:00:00Z --format pdf",
                "gpudash report nodes --prometheus-url URL --start 2026-10-01T00:00:00Z --end 2026-10-02T00:00:00Z",
                "gpudash report idle --prometheus-url URL")),
    "grafana-bootstrap": ("create gpudash's Grafana orgs, folders, permissions and service accounts (idempotent)",
                          ("gpudash grafana-bootstrap --grafana-url https://grafana.example --dry-run",)),
    "mock": ("a synthetic GPU cluster: live /metrics, OpenMetrics history, its reference bill",
             ("gpudash mock serve -f mock.yaml --port 9400", "gpudash mock bill -f mock.yaml --hours 0:24")),
    "doctor": ("check that a live spoke, hub or single cluster is ready to bill",
               ("gpudash doctor --prometheus-url URL --role spoke",
                "gpudash doctor --prometheus-url URL --format json")),
    "prune": ("scale down workloads whose GPUs sit idle, and restore them (dry run by default)",
              ("gpudash prune --prometheus-url URL          # dry run: what would stop",
               "gpudash prune --prometheus-url URL --restore team-a/Deployment/infer")),
    "demo": ("see it work: a local Prometheus with a synthetic cluster, its bill and statements",
             ("gpudash demo                # ./gpudash.yaml, else the bundled example",
              "gpudash demo --no-wait --nodes")),
    "preview": ("draw every dashboard with data from a Prometheus, without Grafana: an HTML page and a PNG each",
                ("gpudash preview --prometheus-url https://thanos-querier.example -o preview",
                 "gpudash preview --example --prometheus-url http://127.0.0.1:9090 --no-png")),
}


def _generate(model, label: str, tests: Mapping[str, object] | None = None):
    from gpudash.base.progress import Progress
    from gpudash.render.targets import artifacts

    with Progress(label) as progress:
        return artifacts.generate(model, progress, tests)


def _refuse_foreign_project(out: str) -> None:
    """A render never writes into some project's root (a clone of gpudash, an application's repository) unless
    gpudash already owns the folder: its files would land among the project's own (tests/, rules/...)."""
    from pathlib import Path

    from gpudash.base.layout import MANIFEST, PROJECT_MARKERS

    folder = Path(out)
    if (folder / MANIFEST).exists():
        return
    found = [name for name in PROJECT_MARKERS if os.path.lexists(folder / name)]
    if found:
        raise GpudashError(f"{out}: holds a project gpudash did not create ({', '.join(found)}); render into a "
                           f"folder of its own, e.g. -o {os.path.join(out, 'gpudash-out')}")


def cmd_render(args) -> int:
    with collector.paused():  # a render's objects are freed by reference counts (gpudash.base.collector)
        return _cmd_render(args)


def _cmd_render(args) -> int:
    from contextlib import nullcontext

    from gpudash.render import writer
    from gpudash.render.golden import orchestrate

    _refuse_foreign_project(args.output)
    model = load_model_from_args(args)
    with nullcontext() if args.check else writer.lock(args.output) as held:  # --check writes nothing
        if held is not None and held.recovered:
            print(f"gpudash: {held.recovered}", file=sys.stderr)
        edited = [] if args.check or args.force else writer.edited_by_hand(args.output)
        if edited:  # said before the work, not after it; a file no longer generated is refused too
            raise GpudashError(f"{os.path.join(args.output, edited[0])}: edited by hand since gpudash wrote it"
                               f"{f' (and {len(edited) - 1} more)' if edited[1:] else ''}; move the edit into the "
                               "model and re-render, or render with --force (which overwrites it, or keeps it if "
                               "the model no longer makes it)")
        golden = orchestrate.ForRender(model, orchestrate.jobs(args.jobs))  # emitted meanwhile, or cached
        try:
            return _render(args, model, golden.files, orchestrate.spread(orchestrate.jobs(args.jobs)))
        finally:
            golden.close()  # before the lock is freed: a forked worker shares its descriptor


def _render(args, model, tests: Mapping[str, object], spread) -> int:
    from gpudash.render import writer
    from gpudash.render.targets import artifacts

    files = _generate(model, "render", tests)
    for note in artifacts.size_notes(files):
        print(f"gpudash: {note}", file=sys.stderr)
    from gpudash.base.progress import Progress

    with Progress("render: files") as progress:  # the golden tests and large files are made as they are written
        plan = writer.plan(args.output, files, stage=not args.check, progress=progress, spread=spread, local=tests)
    del files  # planned: the generated data is not needed to apply (a deferred file lived only while staged)
    if args.check:
        drift = plan.changed() + plan.stale()
        if drift:
            print(writer.diff(plan), end="")
            print(f"gpudash: {len(drift)} file(s) would change in {args.output}: {', '.join(drift)}", file=sys.stderr)
            return 1
        print(f"gpudash: {args.output} is up to date ({len(plan.digests)} files)")
        return 0
    written, unchanged, stale = plan.counts()
    kept = writer.apply(plan, force=args.force)
    for rel in kept:
        print(f"gpudash: kept {rel}: no longer generated, but edited by hand; remove it yourself", file=sys.stderr)
    removed = f", removed {stale - len(kept)}" if stale - len(kept) else ""
    print(f"gpudash: {args.output}: wrote {written}, unchanged {unchanged}{removed}")
    return 0


def cmd_validate(args) -> int:
    from gpudash.base.deferred import built
    from gpudash.render.golden import orchestrate

    model = load_model_from_args(args)
    files = _generate(model, "validate", orchestrate.texts(model, "validate", orchestrate.jobs(None)))
    for data in files.values():  # a deferred file is proven as it is built, as in a render
        built(data)
    print(f"gpudash: {model.source} is valid ({len(model.gpu_classes)} GPU classes, {len(model.tenants)} tenants, "
          f"{len(files)} artifacts)")
    return 0


def cmd_test(args) -> int:
    from gpudash.base.progress import Progress
    from gpudash.ops.promtest import report, run_promtool_tests
    from gpudash.render import writer
    from gpudash.render.golden import orchestrate

    def run(folder) -> int:
        with Progress("test") as progress:
            return report(run_promtool_tests(folder, jobs=args.jobs, progress=progress))

    if args.output:
        return run(args.output)
    model = load_model_from_args(args)
    with tempfile.TemporaryDirectory(prefix="gpudash-test-") as tmp:
        tests = orchestrate.texts(model, "test", orchestrate.jobs(args.jobs))
        writer.apply(writer.plan(tmp, _generate(model, "test: render", tests)))
        return run(tmp)


def _schema_text() -> str:
    import json

    from gpudash.model import json_schema

    return json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"


def cmd_schema(args) -> int:
    print(_schema_text(), end="")
    return 0


def cmd_init(args) -> int:
    """Start a model from the annotated example, with the schema its modeline names for editor completion."""
    from pathlib import Path

    from gpudash.model.load import DEFAULT_MODEL, bundled_example_path

    out = Path(args.output)
    files = {DEFAULT_MODEL: bundled_example_path().read_text(encoding="utf-8"), SCHEMA_FILE: _schema_text()}
    existing = [str(out / name) for name in files if os.path.lexists(out / name)]
    if existing:
        raise GpudashError(f"{', '.join(existing)}: already exists; gpudash init never overwrites a file")
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            with open(out / name, "x", encoding="utf-8") as f:
                f.write(text)
    except OSError as err:
        raise GpudashError(f"{out}: cannot write: {err.strerror or err}") from None
    print(f"gpudash: wrote {out / DEFAULT_MODEL} (the annotated example) and {out / SCHEMA_FILE}; "
          f"edit the model, then run `gpudash render` (it writes ./{DEFAULT_OUTPUT})")
    return 0


def _parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser; ``argv``: the arguments it will parse. When they name one of this module's
    commands (render, validate, test, ...), the other modules' commands (:data:`EXTERNAL_COMMANDS`) are listed
    without their options: their modules and what they import (doctor's checks, http, ssl, email: a tenth of a
    second, compiled where there is no bytecode) are not loaded before every render."""
    from importlib.metadata import version

    parser = argparse.ArgumentParser(prog="gpudash", description="GPU metering and billing as code.")
    parser.add_argument("--version", action="version", version=f"gpudash {version('gpudash')}")
    sub = parser.add_subparsers(dest="command", required=True)

    def with_config(p):
        add_model_options(p)
        return p

    def command(name: str):
        return add_command(sub, name, *HELP[name])

    p = command("init")
    p.add_argument("-o", "--output", default=".", help="folder to write into (default: current folder)")
    p.set_defaults(func=cmd_init)

    p = with_config(command("render"))
    p.add_argument("-o", "--output", default=DEFAULT_OUTPUT, help=f"output folder (default: ./{DEFAULT_OUTPUT}; "
                   "never a folder holding another project, e.g. a repository root)")
    p.add_argument("--check", action="store_true", help="exit 1 with a diff when the output would change")
    p.add_argument("--force", action="store_true",
                   help="overwrite files edited by hand since gpudash wrote them (default: refuse, exit 2)")
    p.add_argument("-j", "--jobs", type=int, default=None,
                   help="processes emitting the golden tests and writing the other files (default: one per CPU; "
                   "1: this process alone)")
    p.set_defaults(func=cmd_render)
    p = with_config(command("validate"))
    p.set_defaults(func=cmd_validate)
    p = with_config(command("test"))
    p.add_argument("-o", "--output", help="a rendered folder (default: render the model into a temp folder)")
    p.add_argument("-j", "--jobs", type=int, default=None, help="parallel promtool runs (default: CPU count)")
    p.set_defaults(func=cmd_test)
    command("schema").set_defaults(func=cmd_schema)
    named = next((a for a in argv if not a.startswith("-")), None) if argv is not None else None
    own = named in sub.choices
    for name, module in EXTERNAL_COMMANDS.items():
        p = command(name)
        if not own:
            mod = importlib.import_module(module)
            mod.add_arguments(p)
            p.set_defaults(func=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _parser(argv).parse_args(argv)
    try:
        code = args.func(args)
        sys.stdout.flush()  # output smaller than the buffer meets a closed pipe here, not at interpreter exit
        return code
    except GpudashError as err:
        print(f"gpudash: {err}", file=sys.stderr)
        return err.exit_code
    except ModuleNotFoundError as err:
        package = (err.name or "").partition(".")[0]
        if package not in EXTRA_PACKAGES.get(EXTRAS.get(args.command, ""), ()):
            raise
        print(f"gpudash: {args.command} needs the {package} package: pip install 'gpudash[{EXTRAS[args.command]}]'",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `gpudash mock bill | head`: the reader stopped reading
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes
        print("gpudash: stdout was closed before the output was complete (broken pipe)", file=sys.stderr)
        return 2
