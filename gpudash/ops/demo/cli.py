"""see it work in one command: a local Prometheus with a synthetic cluster's last two days and the rendered
rules, the billing and CCSP reports of the last day, an HTML statement per tenant

``python -m gpudash demo [-c gpudash.yaml | --example] [--work-dir DIR] [--no-wait] [--nodes]``: the mock
cluster (gpudash/ops/demo/demo.mock.yaml) is written as OpenMetrics history, backfilled into a Prometheus on 127.0.0.1
(PATH's ``prometheus``/``promtool``), the single-cluster spoke and hub rules are backfilled over it level by level
(:mod:`gpudash.ops.demo.prometheus`, the harness the e2e tests use), then the reports run against it as they would
against a real cluster.

The model is found as every command finds it (``-c``, ``--example``, ``./gpudash.yaml``), except that with none of
them the demo says so and takes the bundled example instead of stopping: it is the newcomer's first command.
Ctrl-C or SIGTERM stops the server; a temp work folder is removed on exit except its statements.
"""
from __future__ import annotations

import shutil
import signal
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from gpudash.base.errors import GpudashError
from gpudash.promql.read import HOUR

DAY = 24 * HOUR
MOCK_FILE = Path(__file__).with_name("demo.mock.yaml")
STATEMENTS = "statements"  # the work folder's subfolder kept after a temp run


def add_arguments(parser) -> None:
    from gpudash.ops.cliargs import add_model_options

    add_model_options(parser, fallback="the bundled example")
    parser.add_argument("--work-dir", metavar="DIR",
                        help="folder for the rendered rules, history, TSDB and statements (default: a temp folder, "
                             "removed on exit but for its statements)")
    parser.add_argument("--no-wait", action="store_true", help="stop the server after the reports instead of "
                                                               "serving it until Ctrl-C")
    parser.add_argument("--nodes", action="store_true",
                        help="also print the CCSP per-node table (default: the bill and the hourly CCSP summary)")


def _say(text: str) -> None:
    print(f"gpudash demo: {text}", file=sys.stderr, flush=True)


def mock_for(model, end_hour: int):
    """The demo mock bound to ``model``, ending at ``end_hour`` (a whole UTC hour)."""
    import yaml

    from gpudash.ops.mock.config import compile_mock

    raw = yaml.safe_load(MOCK_FILE.read_text(encoding="utf-8"))
    probe = compile_mock(raw, model, str(MOCK_FILE))
    raw["start"] = datetime.fromtimestamp(end_hour - probe.scenario.duration * 60, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return compile_mock(raw, model, str(MOCK_FILE))


def run(args) -> int:
    model = _model(args)
    temp = not args.work_dir
    work = Path(tempfile.mkdtemp(prefix="gpudash-demo-")) if temp else Path(args.work_dir)
    previous = signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM unwinds like Ctrl-C: the server is stopped
    try:
        return _run(args, model, work)
    except KeyboardInterrupt:
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
        if temp:
            _clean(work)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _run(args, model, work: Path) -> int:
    from gpudash.ops.demo.prometheus import Prometheus, ToolMissing

    now = time.time()
    end_hour = int(now // HOUR) * HOUR
    mock = mock_for(model, end_hour)
    try:
        work.mkdir(parents=True, exist_ok=True)
        rules = _render_rules(model, work / "rendered")
    except OSError as err:
        raise GpudashError(f"--work-dir {work}: cannot write: {err.strerror or err}") from None
    try:
        prom = Prometheus(work / "prometheus")
    except ToolMissing as err:
        raise GpudashError(f"gpudash demo runs a local Prometheus: {err}") from None
    try:
        _backfill(prom, model, mock, rules, work, end_hour)
        _reports(prom.url, model, end_hour - 2 * HOUR, now, work, args.nodes)
        if args.no_wait:
            return 0
        print(f"\nExplore the series: {prom.url}/graph  (Ctrl-C stops the server)", flush=True)
        while True:
            time.sleep(3600)
    finally:
        prom.stop()


def _clean(work: Path) -> None:
    """Remove a temp work folder but for its statements (the TSDB and history are about 130 MB)."""
    for child in work.iterdir() if work.is_dir() else ():
        if child.name != STATEMENTS:
            shutil.rmtree(child, ignore_errors=True) if child.is_dir() else child.unlink(missing_ok=True)
    if work.is_dir() and not any(work.iterdir()):
        work.rmdir()


def _model(args):
    from gpudash.model import load_bundled_example
    from gpudash.model.load import DEFAULT_MODEL
    from gpudash.ops.cliargs import load_model_from_args

    if args.config or args.example or Path(DEFAULT_MODEL).exists():
        return _one_prometheus(load_model_from_args(args))
    _say(f"no ./{DEFAULT_MODEL} here: using the bundled example (`gpudash init` copies it here to edit)")
    return _one_prometheus(load_bundled_example())


def _one_prometheus(model):
    """``model`` as the demo's single Prometheus evaluates it: without the spoke tier, whose per-step samples give
    the same hourly figures (the golden scenarios check both against one reference) but whose 24 hours of backfill
    settle each hour on the hub 26 hours after it, past the end of the demo's history."""
    import dataclasses

    from gpudash.model.types import SPOKE_TIERS

    if not model.billing.tier:
        return model
    _say("one local Prometheus: the rules are evaluated without the spoke tier (the same figures, each hour final "
         "at once instead of after billing.backfill_hours)")
    billing = dataclasses.replace(model.billing, spoke_tier=SPOKE_TIERS[0], backfill_hours=0)
    return dataclasses.replace(model, billing=billing)


def _render_rules(model, out: Path) -> list[Path]:
    """The single-cluster rule files (spoke, then hub) written to ``out``."""
    from gpudash.base import layout
    from gpudash.render import rules, writer

    writer.apply(writer.plan(out, rules.artifacts(model)))
    return [out / layout.SPOKE_RULES, out / layout.HUB_RULES]


def _backfill(prom, model, mock, rule_paths: list[Path], work: Path, end_hour: int) -> None:
    from gpudash.base.progress import Progress
    from gpudash.ops.mock.history import write_history

    _say(f"writing {mock.scenario.duration // 1440} days of a synthetic cluster's history "
         f"({', '.join(mock.scenario.clusters)})")
    with Progress("demo: history") as progress:
        stats = write_history(mock, model, work / "history", progress=progress)
    _say(f"loading {stats.samples} samples into Prometheus at {prom.url}")
    prom.backfill_openmetrics(stats.files)
    _say("evaluating the gpudash rules over the history (backfill, level by level)")
    prom.backfill_rules(rule_paths, mock.start, end_hour, method="query")


def _reports(url: str, model, end: int, now: float, work: Path, per_node: bool) -> None:
    from datetime import date

    from gpudash.ops.report import billing, invoice, nodes, render
    from gpudash.ops.report.client import Prometheus as Client

    start = end - DAY
    client = Client(url)
    report = billing.fetch(client, model, start, end, now=now)
    print(render.billing_table(report))
    ccsp = nodes.fetch(client, model, start, end, now=now)
    print(render.nodes_table(ccsp, per_node=per_node))
    if not per_node and ccsp.rows:
        print(f"({len(ccsp.rows)} per-node rows: --nodes prints them)")
    for warning in report.warnings + ccsp.warnings:
        _say(f"warning: {warning}")
    folder = work / STATEMENTS
    folder.mkdir(exist_ok=True)
    for inv in invoice.invoices(report, model, date.today(), now):
        path = folder / render.statement_filename(inv)
        path.write_text(render.statement_html(report, inv), encoding="utf-8")
        print(f"statement: {path}")
