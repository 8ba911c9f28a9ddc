"""The command line's parser loads the other modules' commands (report, doctor, ...) only for a command line that
names none of cli's own: a render does not import them first (a tenth of a second before its work)."""
from __future__ import annotations

import pytest

from gpudash import cli


@pytest.fixture
def imported(monkeypatch) -> list[str]:
    """The modules the parser imports, recorded."""
    seen: list[str] = []
    load = cli.importlib.import_module
    monkeypatch.setattr(cli.importlib, "import_module", lambda name: seen.append(name) or load(name))
    return seen


@pytest.mark.parametrize("argv", [["render", "--example"], ["validate", "-c", "m.yaml"], ["test"], ["schema"]])
def test_an_own_command_loads_no_other_command(argv, imported):
    cli._parser(argv).parse_args(argv)
    assert imported == []


@pytest.mark.parametrize("argv", [None, [], ["--version"], ["nonsense"], ["report", "billing", "--help"]])
def test_any_other_command_line_loads_every_command(argv, imported):
    cli._parser(argv)
    assert imported == list(cli.EXTERNAL_COMMANDS.values())


def test_the_commands_listed_are_the_same():
    assert cli._parser(["render"]).format_help() == cli._parser().format_help()
