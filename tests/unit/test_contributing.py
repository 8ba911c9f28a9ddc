"""CONTRIBUTING.md's "Adding things" and docs/reports.md stay complete: CONTRIBUTING names every module of
``render/targets/`` that is no target itself (what a new target touches besides its own module), and docs/reports.md
lists every report's ``--format`` choices as the CLI offers them, each but the default with its section (#48 item 6).
"""
from __future__ import annotations

import re

import pytest

from gpudash import cli
from gpudash.render import targets
from tests.conftest import ROOT

REPORTS_MD = (ROOT / "docs" / "reports.md").read_text()
TARGET_MODULES = {f.__module__.rpartition(".")[2] + ".py" for f in targets.DELIVER.values()}
HELPERS = sorted(p.name for p in (ROOT / "gpudash" / "render" / "targets").glob("*.py")
                 if p.name not in {"__init__.py", *TARGET_MODULES})


def _format_choices() -> dict[str, list[str]]:
    """{report: its --format choices, in the parser's order}."""
    report = next(a for a in cli._parser()._subparsers._group_actions[0].choices["report"]._actions
                  if a.choices and "billing" in a.choices)
    return {name: next(a.choices for a in sub._actions if "--format" in a.option_strings)
            for name, sub in report.choices.items()}


@pytest.mark.parametrize("module", HELPERS)
def test_contributing_names_every_module_a_new_target_touches(module):
    assert module in (ROOT / "CONTRIBUTING.md").read_text()


@pytest.mark.parametrize("report,choices", _format_choices().items())
def test_reports_md_lists_every_format_of_every_report(report, choices):
    synopsis = re.search(rf"^python -m gpudash report {report} .*?\[--format ([a-z|]+)\]", REPORTS_MD, re.M | re.S)
    assert synopsis and synopsis[1].split("|") == list(choices)
    for fmt in choices[1:]:  # the first is the default, the table
        assert f"`--format {fmt}`" in REPORTS_MD, fmt
