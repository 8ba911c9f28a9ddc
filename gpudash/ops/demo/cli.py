"""see it work in one command: a local Prometheus with a synthetic cluster's last two days and the rendered
rules, the billing and CCSP reports of the last day, an HTML statement per tenant

``python -m gpudash demo [-c gpudash.yaml | --example] [--work-dir DIR] [--no-wait] [--nodes]``: the mock
cluster (gpudash/ops/demo/demo.mock.yaml) is written as OpenMetrics history, backfilled into a Prometheus on 127.0.0.1
(PATH's ``prometheus``/``promtool``), the single-cluster spoke and hub rules are backfilled over it level by level
(:mod:`gpudash.ops.demo.prometheus`, the harness the e2e tests use; the spoke group every push interval, as ACM's
collector runs it: the same hourly figures for less work, :func:`gpudash.render.rules.rule_files.at_push_interval`),
then the reports run against it as they would against a real cluster.

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
from gpudash.base.terminal import printable
from gpudash.promql.read import HOUR

DAY = 24 * HOUR
MOCK_FILE = Path(__file__).with_name("demo.mock.yaml")
STATEMENTS = "statements"  # the work folder's subfolder kept after a temp run
DASHBOARDS = "dashboards"  # in it: every dashboard drawn with the demo's data (HTML and PNG)


def add_arguments(parser) -> None:
    from gpudash.ops.cliargs import add_model_options

    add_model_options(parser, fallback="the bundled example")
    parser.add_argument("--work-dir", metavar="DIR",
                        help="a new or empty folder for the rendered rules, history, TSDB and statements (default: a "
                             "temp folder, removed on exit but for its statements)")
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
    source, data = _model_data(args)
    from gpudash.ops.demo import workdir

    temp = not args.work_dir
    work = Path(tempfile.mkdtemp(prefix="gpudash-demo-")) if temp else workdir.prepare(Path(args.work_dir))
    previous = signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM unwinds like Ctrl-C: the server is stopped
    try:
        return _run(args, source, data, work)
    except KeyboardInterrupt:
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
        if temp:
            _clean(work)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _run(args, source: str, data: dict, work: Path) -> int:
    from gpudash.ops.demo.prometheus import Prometheus, ToolMissing

    now = time.time()
    end_hour = int(now // HOUR) * HOUR
    try:
        model = _write_model(source, data, work / STATEMENTS)
        rules = _render_rules(model, work / "rendered")
    except OSError as err:
        raise GpudashError(f"--work-dir {printable(str(work))}: cannot write: {err.strerror or err}") from None
    try:
        prom = Prometheus(work / "prometheus")
    except ToolMissing as err:
        raise GpudashError(f"gpudash demo runs a local Prometheus: {err}") from None
    try:
        _backfill(prom, model, mock_for(model, end_hour), rules, work, end_hour)
        _reports(prom.url, model, end_hour - 2 * HOUR, now, work, args.nodes)
        _dashboards(prom.url, model, end_hour, work)
        if args.no_wait:
            _say(f"the model it ran: {model.source} (without --no-wait the server stays up, and the demo prints the "
                 "`gpudash report` command that gives this bill)")
            return 0
        print(f"\nThe same bill from gpudash report (while this server runs):\n  "
              f"{_report_command(prom.url, model.source, end_hour - 2 * HOUR)}")
        print(f"\nExplore the series: {prom.url}/graph  (Ctrl-C stops the server)", flush=True)
        while True:
            time.sleep(3600)
    finally:
        prom.stop()


def _dashboards(url: str, model, end: float, work: Path) -> None:
    """Every dashboard drawn with the demo's data (``gpudash preview``) as it looked at ``end``, where the history
    stops (later, every "now" panel would be empty): HTML pages, and PNGs where Chromium draws them."""
    from gpudash.ops.preview import draw, evaluate
    from gpudash.ops.prometheus_client import Prometheus as Client

    # one cluster's own Prometheus: a tenant reads it through the tenancy port's namespace enforcement
    written = draw.pages(Client(url), model, work / STATEMENTS / DASHBOARDS, end, tenant_mode=evaluate.THANOS_QUERIER)
    try:
        if not draw.have_browser():
            raise GpudashError("no Chromium on PATH")
        draw.pictures(written)
    except GpudashError as err:  # no browser, or one that draws nothing: the pages are there all the same
        _say(f"the dashboards are HTML pages only, no PNG: {err}")
    for page, problems, _ in written:
        print(f"dashboard: {page}")
        for line in problems:
            _say(f"warning: {line}")


def _report_command(url: str, model_file: str, end: int) -> str:
    """The ``gpudash report billing`` command line that prints the demo's bill of the day before ``end``."""
    import shlex

    from gpudash.base.timestamps import rfc3339

    return shlex.join([sys.executable, "-m", "gpudash", "report", "billing", "-c", model_file,
                       "--prometheus-url", url, "--start", rfc3339(end - DAY), "--end", rfc3339(end)])


def _clean(work: Path) -> None:
    """Remove a temp work folder but for its statements (the TSDB and history are about 130 MB)."""
    for child in work.iterdir() if work.is_dir() else ():
        if child.name != STATEMENTS:
            shutil.rmtree(child, ignore_errors=True) if child.is_dir() else child.unlink(missing_ok=True)
    if work.is_dir() and not any(work.iterdir()):
        work.rmdir()


def _model_data(args) -> tuple[str, dict]:
    """(where the model came from, its data) as every command finds it, or the bundled example with a note; a bad
    model stops here, before anything is written."""
    from gpudash.model import load_model
    from gpudash.model.load import BUNDLED_SOURCE, DEFAULT_MODEL, bundled_example_path, resolve_model_path
    from gpudash.model.parse import parse_yaml, read_text

    if args.config or args.example or Path(DEFAULT_MODEL).exists():
        path = resolve_model_path(args.config, example=args.example)
    else:
        _say(f"no ./{DEFAULT_MODEL} here: using the bundled example (`gpudash init` copies it here to edit)")
        path = bundled_example_path()
    load_model(path)  # valid, so its data is a mapping of known fields
    source = BUNDLED_SOURCE if path == bundled_example_path() else str(path)
    return source, parse_yaml(read_text(path, source), source)[0]


def _write_model(source: str, data: dict, folder: Path):
    """The model the demo runs, written as ``folder``/gpudash.yaml and loaded from there: the one found, with
    ``billing.spoke_tier: none`` and ``backfill_hours: 0`` as one local Prometheus evaluates it. The spoke tier's
    per-step samples give the same hourly figures (the golden scenarios check both against one reference), but
    its backfill settles each hour 26 hours after it, past the end of the demo's history."""
    import yaml

    from gpudash.model import load_model
    from gpudash.model.load import DEFAULT_MODEL
    from gpudash.model.types import SPOKE_TIERS

    data["billing"] = {**(data.get("billing") or {}), "spoke_tier": SPOKE_TIERS[0], "backfill_hours": 0}
    path = folder / DEFAULT_MODEL
    header = (f"# The model `gpudash demo` ran: {printable(source)}, with billing.spoke_tier: {SPOKE_TIERS[0]} and "
              "backfill_hours: 0\n# (one local Prometheus evaluates the rules without the spoke tier).\n")
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    _say(f"the model it runs, with spoke_tier: {SPOKE_TIERS[0]} and backfill_hours: 0 (one local Prometheus: the "
         f"same figures, each hour final at once instead of after billing.backfill_hours): {path}")
    return load_model(path)


def _render_rules(model, out: Path) -> list[Path]:
    """The single-cluster rule files (spoke, evaluated every push interval, then hub) and the tenant alerts recorded
    as ALERTS, written to ``out``."""
    from gpudash.base import layout
    from gpudash.ops.demo import recorded_alerts
    from gpudash.render import rules, writer
    from gpudash.render.rules import rule_files

    files = rules.artifacts(model)
    files[layout.SPOKE_RULES] = rule_files.at_push_interval(files[layout.SPOKE_RULES], model)
    writer.apply(writer.plan(out, {**files, recorded_alerts.FILE: recorded_alerts.rule_file(model)}))
    return [out / layout.SPOKE_RULES, out / layout.HUB_RULES, out / recorded_alerts.FILE]


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

    from gpudash.ops.prometheus_client import Prometheus as Client
    from gpudash.ops.report import billing, invoice, nodes, presentation

    start = end - DAY
    client = Client(url)
    report = billing.fetch(client, model, start, end, now=now)
    print(presentation.billing_table(report))
    ccsp = nodes.fetch(client, model, start, end, now=now)
    print(presentation.nodes_table(ccsp, per_node=per_node))
    if not per_node and ccsp.rows:
        print(f"({len(ccsp.rows)} per-node rows: --nodes prints them)")
    for warning in report.warnings + ccsp.warnings:
        _say(f"warning: {warning}")
    folder = work / STATEMENTS
    folder.mkdir(exist_ok=True)
    for inv in invoice.invoices(report, model, date.today(), now, issue=False):  # previews: no number consumed
        path = folder / presentation.statement_filename(inv)
        path.write_text(presentation.statement_html(report, inv), encoding="utf-8")
        print(f"statement: {path}")
