"""billing statements, CCSP hourly report and idle-GPU report from a live Prometheus or Thanos

``python -m gpudash report billing|nodes|idle --prometheus-url URL ...``, and ``report credit-note NUMBER`` from the
ledger alone; see docs/reports.md. Reports only read (HTTP GET/POST to the Prometheus query API); they never change
anything in a cluster. Warnings (partial data, unpriced usage, non-tenant namespaces, hours not final yet) go to
stderr, and also into the JSON and HTML output; errors are one line on stderr and exit code 2. A partial answer is
such an error unless ``--allow-partial``, which prints the figures marked partial in every format.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gpudash.base.errors import GpudashError
from gpudash.base.terminal import printable
from gpudash.model.load import load_model_from_args
from gpudash.ops.cliargs import (
    add_command,
    add_model_options,
    add_prometheus_options,
    duration,
    prometheus_from_args,
)
from gpudash.ops.report import formats
from gpudash.ops.report.formats import BILLING, CREDIT_NOTE, IDLE, NODES

EXAMPLES = {
    "billing": ("gpudash report billing --prometheus-url https://rbac-query-proxy.example "
                "--start 2026-10-01T00:00:00Z --end 2026-11-01T00:00:00Z",
                "gpudash report billing --prometheus-url URL --start 2026-10-01T00:00:00Z --end 2026-11-01T00:00:00Z "
                "--format pdf --final --ledger invoices/ledger --output-dir invoices/2026-10",
                "gpudash report billing --prometheus-url URL --tenant team-a --start 2026-10-01T00:00:00Z "
                "--end 2026-10-02T00:00:00Z --format csv"),
    "nodes": ("gpudash report nodes --prometheus-url URL --start 2026-10-01T00:00:00Z --end 2026-10-02T00:00:00Z",
              "gpudash report nodes --prometheus-url URL --start 2026-10-01T00:00:00Z --end 2026-11-01T00:00:00Z "
              "--format csv --summary   # the CCSP hourly summary"),
    "credit-note": ("gpudash report credit-note GPU-000042 --ledger invoices/ledger --output-dir invoices/credit",),
    "idle": ("gpudash report idle --prometheus-url URL",
             "gpudash report idle --prometheus-url URL --tenant team-a --window 2h --format json"),
}


def _date(text: str):
    from datetime import date

    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date such as 2026-02-01") from None


def _connection(p: argparse.ArgumentParser, tenant: bool = True) -> None:
    p.add_argument("--prometheus-url", required=True, metavar="URL",
                   help="Prometheus, Thanos Querier or ACM hub rbac-query-proxy base URL")
    add_model_options(p)
    add_prometheus_options(p)
    p.add_argument("--cluster", metavar="NAME", help="only this cluster of the model's clusters")
    p.add_argument("--allow-partial", action="store_true",
                   help="print the figures when the query API warned that part of the metrics store did not answer "
                        "(refused by default), marked partial in every format; a statement stays a draft")
    if tenant:  # report nodes is a provider report: the CCSP series have no namespace
        p.add_argument("--tenant", metavar="NAME", help="only this tenant (its name in the model); every query "
                                                        "carries namespace=<its namespace> (tenant tokens need it)")


def _period(p: argparse.ArgumentParser) -> None:
    p.add_argument("--start", required=True, metavar="RFC3339", help="period start, a whole UTC hour (inclusive)")
    p.add_argument("--end", required=True, metavar="RFC3339", help="period end, a whole UTC hour (exclusive)")


def _format(p: argparse.ArgumentParser, report: str, default: str = "table") -> None:
    p.add_argument("--format", choices=formats.offered(report), default=default,
                   help=f"{formats.help_text(report)} (default: {default})")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="report", required=True, metavar="{billing,credit-note,nodes,idle}")
    b = add_command(sub, "billing", "GPU-hours and cost per cluster, tenant, GPU class and resource",
                    EXAMPLES["billing"])
    _connection(b)
    _period(b)
    _format(b, BILLING)
    b.add_argument("--output-dir", default=".", metavar="DIR",
                   help="statement formats: folder for one statement per tenant (default: current folder)")
    b.add_argument("--issue-date", type=_date, metavar="YYYY-MM-DD",
                   help="statement formats: the issue date printed on the statements (default: today, UTC)")
    b.add_argument("--final", action="store_true",
                   help="statement formats: issue the statements as invoices, numbered from the ledger; refused "
                        "(exit 2) unless every one is final. Without it every statement is a draft (no number)")
    b.add_argument("--ledger", metavar="DIR",
                   help="with --final: folder recording the numbers issued, sequential per series; one issued "
                        "again with other amounts takes the next number and names the one it replaces "
                        "(default: $XDG_DATA_HOME/gpudash/ledger, i.e. ~/.local/share/gpudash/ledger)")
    _credit_note_arguments(sub)
    n = add_command(sub, "nodes", "CCSP: active GPUs per worker node and active nodes per UTC clock hour",
                    EXAMPLES["nodes"])
    _connection(n, tenant=False)
    _period(n)
    _format(n, NODES)
    n.add_argument("--summary", action="store_true", help="--format csv: the per-hour summary instead of nodes")
    i = add_command(sub, "idle", "workloads holding GPUs with zero activity (gpu-pruner's dry run)", EXAMPLES["idle"])
    _connection(i)
    i.add_argument("--window", type=duration, metavar="DURATION",
                   help="only pods idle at least this long (default and minimum: the model's alerts.idle.window)")
    i.add_argument("--namespace", metavar="REGEX", default=".*",
                   help="only these namespaces (the model's alerts.idle.namespace_regex already applies)")
    i.add_argument("--model", metavar="REGEX", default=".*",
                   help="only these GPU models, as the exporters' model label names them (alerts.idle.model_regex "
                        "already applies)")
    i.add_argument("--time", metavar="RFC3339", help="evaluate at this time (default: now)")
    i.add_argument("--lookback", type=duration, default=7 * 86400, metavar="DURATION",
                   help="how far back to look for the last activity (default: 7d)")
    _format(i, IDLE)


def _credit_note_arguments(sub) -> None:
    c = add_command(sub, "credit-note", "issue a credit note (type 381) cancelling a final invoice of the ledger",
                    EXAMPLES["credit-note"])
    c.add_argument("number", metavar="NUMBER", help="the final invoice to cancel, e.g. GPU-000042: its series' live "
                                                    "invoice of its statement, issued with lines in the ledger")
    add_model_options(c)
    _format(c, CREDIT_NOTE, default="xml")
    c.add_argument("--output-dir", default=".", metavar="DIR", help="folder for the credit note (default: .)")
    c.add_argument("--issue-date", type=_date, metavar="YYYY-MM-DD", help="its issue date (default: today, UTC)")
    c.add_argument("--ledger", metavar="DIR", help="the ledger holding the invoice; the credit note takes its "
                                                   "series' next number (default: as report billing --final)")


def _credit_note(model, args) -> int:
    """``report credit-note``: write and record the credit note, print where it went."""
    from datetime import UTC, datetime

    from gpudash.ops.report import credit, presentation
    from gpudash.ops.report.ledger import default_folder

    fmt = formats.BY_NAME[args.format]

    def write(inv) -> Path:
        return _write(Path(args.output_dir) / presentation.statement_filename(inv, fmt.suffix),
                      _statement(fmt, None, inv), args)

    print(credit.issue(model, args.number, args.ledger or default_folder(),
                       args.issue_date or datetime.now(UTC).date(), write))
    return 0


def run(args) -> int:
    from gpudash.base.progress import Progress

    formats.presentation()  # a missing report extra is one line before the model is read or a query sent
    model = load_model_from_args(args)
    if args.report == CREDIT_NOTE:
        return _credit_note(model, args)
    if args.cluster is not None and args.cluster not in model.clusters:
        from gpudash.model.context import did_you_mean

        raise GpudashError(f"--cluster {args.cluster} is not one of the model's clusters "
                           f"({', '.join(model.clusters)}){did_you_mean(args.cluster, model.clusters)}")
    if args.report == IDLE and args.window is not None and args.window < model.alerts.idle.window:
        from gpudash.model.durations import format_duration

        raise GpudashError(f"--window {format_duration(args.window)} is shorter than alerts.idle.window "
                           f"({format_duration(model.alerts.idle.window)}): it narrows the recorded idle series "
                           "(the one idle definition), never redefines it")
    prom = prometheus_from_args(args)
    progress = Progress(f"report {args.report}")
    try:
        report = _fetch(prom, model, args, progress)
        progress.close()
        _warn(report.warnings)
        _refuse_partial(report, args, prom)
        fmt = formats.BY_NAME[args.format]
        if fmt.statement:
            for path in _write_statements(report, model, args):
                print(path)
        else:
            print(fmt.stdout[args.report](report, args, model), end="")
    finally:
        progress.close()
    return 0


def _fetch(prom, model, args, progress):
    """The report ``args.report`` asks for, read from ``prom`` (with --tenant, every query carries its namespace:
    thanos-querier's tenancy port requires it; others ignore it)."""
    from gpudash.ops.report import billing, idle, nodes
    from gpudash.ops.report.period import parse_period, parse_time

    namespace = None
    if getattr(args, "tenant", None):
        namespace = billing.tenant_by_name(model, args.tenant).namespace
        prom.extra_params["namespace"] = namespace
    if args.report == BILLING:
        start, end = parse_period(args.start, args.end)
        return billing.fetch(prom, model, start, end, tenant=args.tenant, cluster=args.cluster, progress=progress)
    if args.report == NODES:
        start, end = parse_period(args.start, args.end)
        return nodes.fetch(prom, model, start, end, cluster=args.cluster, progress=progress)
    at = parse_time(args.time, "--time") if args.time else None
    if args.tenant and args.namespace != ".*":
        raise GpudashError("give --tenant or --namespace, not both")
    return idle.fetch(prom, model, at=at, window=args.window, namespace_regex=args.namespace, model_regex=args.model,
                      namespace=namespace, cluster=args.cluster, lookback=args.lookback)


def _write_statements(report, model, args) -> list:
    """Write one statement per tenant in ``args.format``; returns their paths. Without --final every statement is
    a draft; drafts are refused with --final and for the e-invoice formats (a draft is no invoice), as is any
    e-invoice that cannot be made, before anything is written; final statements are numbered from the ledger
    (--ledger, else its default folder), under its lock, and recorded once written."""
    import time
    from contextlib import nullcontext
    from datetime import UTC, datetime

    from gpudash.base.progress import Progress
    from gpudash.ops.report import invoice, presentation
    from gpudash.ops.report.ledger import Ledger, default_folder

    issued = args.issue_date or datetime.now(UTC).date()
    if args.ledger and not args.final:
        raise GpudashError("--ledger numbers the statements --final issues: give --final too")
    invoices = invoice.invoices(report, model, issued, time.time(), issue=args.final)
    drafts = [inv for inv in invoices if inv.draft]
    fmt = formats.BY_NAME[args.format]
    if drafts and (args.final or fmt.check):
        why = "--final" if args.final else f"--format {args.format} (an e-invoice)"
        raise GpudashError(f"{why}: the statement of {drafts[0].buyer.name} is a draft ({'; '.join(drafts[0].draft)})"
                           f"{f' (and {len(drafts) - 1} more)' if len(drafts) > 1 else ''}; issue it once final")
    if fmt.check:  # an e-invoice: every invoice checked before anything is written
        for inv in invoices:
            fmt.check(inv)
    out = []
    with Ledger(args.ledger or default_folder()) if args.final else nullcontext() as ledger, \
            Progress(f"report billing: {args.format}") as progress:
        for done, inv in enumerate(invoices):
            progress(done, len(invoices), inv.buyer.name)
            inv, pending = ledger.number(inv) if ledger and inv.final else (inv, None)
            out.append(_write(Path(args.output_dir) / presentation.statement_filename(inv, fmt.suffix),
                              _statement(fmt, report, inv), args))
            if ledger and pending:
                ledger.record(pending)  # the statement is complete and written: now it is issued
    return out


def _statement(fmt: formats.Format, report, inv) -> bytes:
    if fmt.statement is None:  # argparse offers a statement report only its statement formats
        raise GpudashError(f"--format {fmt.name} writes no statement")
    return fmt.statement(report, inv)


def _write(path: Path, data: bytes, args) -> Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as err:
        raise GpudashError(f"--output-dir {args.output_dir}: cannot write {path.name}: {err.strerror}") from None
    return path


def _refuse_partial(report, args, prom) -> None:
    """A partial answer's figures may be short: never printed as if complete (the warnings name the stores)."""
    if report.partial and not args.allow_partial:
        raise GpudashError(f"{prom.shown} answered partially (the query API warned that data may be missing, see the "
                           "warnings above): the figures may be short; report again when every store answers, or "
                           "pass --allow-partial to print them marked as partial")


def _warn(warnings: list[str]) -> None:
    for w in warnings:
        print(f"gpudash: warning: {printable(w)}", file=sys.stderr)  # label values in it: one line each
