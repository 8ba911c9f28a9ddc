"""A newcomer's first commands that validate a whole model (``validate`` renders everything it checks): after
``init``, and with ``--example``. The rest of the newcomer's path: tests/unit/test_cli_newcomer.py."""
from __future__ import annotations

import json

import pytest

from gpudash import cli
from gpudash.model import json_schema
from gpudash.model.load import DEFAULT_MODEL, bundled_example_path


def test_init_writes_the_example_and_its_schema_then_render_uses_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["init"]) == 0
    model = (tmp_path / DEFAULT_MODEL).read_text()
    assert model == bundled_example_path().read_text()
    modeline = model.splitlines()[0]
    assert modeline == f"# yaml-language-server: $schema={cli.SCHEMA_FILE}"
    assert json.loads((tmp_path / cli.SCHEMA_FILE).read_text()) == json_schema()
    assert cli.main(["validate"]) == 0
    assert f"{DEFAULT_MODEL} is valid" in capsys.readouterr().out


def test_example_is_explicit_and_exclusive_with_config(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["validate", "--example"]) == 0
    assert "<bundled example> is valid" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        cli.main(["validate", "--example", "-c", "x.yaml"])
    assert exit_.value.code == 2
