"""One registry of report formats (issue #48 item 6): ``gpudash/ops/report/formats.py`` gives every report's
``--format`` choices and is what ``report`` dispatches through; a new format is one entry there."""
from __future__ import annotations

import argparse
from dataclasses import replace

import pytest

from gpudash.ops.report import cli as report_cli
from gpudash.ops.report import formats
from gpudash.ops.report.formats import BILLING, CREDIT_NOTE, IDLE, NODES
from tests.unit.test_report import billing_report, nodes_report

STDOUT = ("table", "csv", "json")
STATEMENTS = ("html", "pdf", "xml", "facturx", "ubl")
OFFERED = {BILLING: (*STDOUT, "focus", *STATEMENTS), NODES: STDOUT, IDLE: STDOUT, CREDIT_NOTE: ("xml", "ubl")}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    report_cli.add_arguments(parser)
    return parser


def _format_action(report: str) -> argparse.Action:
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)).choices[report]
    return next(a for a in sub._actions if "--format" in a.option_strings)


@pytest.mark.parametrize("report", OFFERED)
def test_each_report_offers_its_formats_from_the_registry(report):
    action = _format_action(report)
    assert tuple(action.choices) == formats.offered(report) == OFFERED[report]
    assert action.default == ("xml" if report == CREDIT_NOTE else "table")
    assert all(f"{name}: " in action.help for name in OFFERED[report])


def test_every_format_has_a_writer_for_every_report_it_offers():
    for fmt in formats.FORMATS:
        assert fmt.reports, fmt.name
        assert bool(fmt.statement) == bool(fmt.suffix) and not (fmt.statement and fmt.stdout), fmt.name
        assert not fmt.check or fmt.statement, fmt.name  # an e-invoice is a statement
    suffixes = [f.suffix for f in formats.FORMATS if f.suffix]
    assert len(set(suffixes)) == len(suffixes)  # a pdf and a facturx run into one folder keep both


def _run(argv: list[str], report, monkeypatch, capsys) -> str:
    """``report <argv>`` through the CLI's one dispatch, the fetched report replaced by ``report``."""
    monkeypatch.setattr(report_cli, "_fetch", lambda prom, model, args, progress: report)
    args = _parser().parse_args([*argv, "--example", "--prometheus-url", "http://127.0.0.1:9"])
    assert report_cli.run(args) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("report,fmt", [(r, f) for r in (BILLING, NODES) for f in formats.offered(r)
                                        if formats.BY_NAME[f].stdout])
def test_run_prints_each_stdout_format_with_its_registered_writer(report, fmt, monkeypatch, capsys):
    built = billing_report() if report == BILLING else nodes_report()
    period = ["--start", "2026-01-31T20:00:00Z", "--end", "2026-02-01T00:00:00Z"]
    out = _run([report, *period, "--format", fmt], built, monkeypatch, capsys)
    model = report_cli.load_model_from_args(_parser().parse_args([report, *period, "--example",
                                                                  "--prometheus-url", "http://127.0.0.1:9"]))
    args = argparse.Namespace(summary=False)
    assert out == formats.BY_NAME[fmt].stdout[report](built, args, model) and out


def test_a_new_format_is_one_registry_entry(monkeypatch, capsys):
    """Registered once, a format is a choice of the reports it names and is what ``run`` prints."""
    tsv = formats.Format("tsv", "tab-separated values on stdout", {NODES: lambda r, a, m: f"{len(r.rows)} rows\n"})
    monkeypatch.setattr(formats, "FORMATS", (*formats.FORMATS, tsv))
    monkeypatch.setitem(formats.BY_NAME, "tsv", tsv)
    assert "tsv" in _format_action(NODES).choices and "tsv" not in _format_action(IDLE).choices
    period = ["--start", "2026-01-31T20:00:00Z", "--end", "2026-02-01T00:00:00Z"]
    assert _run([NODES, *period, "--format", "tsv"], nodes_report(), monkeypatch, capsys) == "3 rows\n"


def test_a_partial_report_is_refused_before_any_writer_runs(monkeypatch, capsys):
    from gpudash.base.errors import GpudashError

    partial = replace(nodes_report(), partial=True)
    monkeypatch.setitem(formats.BY_NAME, "table", replace(formats.BY_NAME["table"], stdout={NODES: pytest.fail}))
    with pytest.raises(GpudashError, match="answered partially"):
        _run([NODES, "--start", "2026-01-31T20:00:00Z", "--end", "2026-02-01T00:00:00Z"], partial, monkeypatch,
             capsys)
