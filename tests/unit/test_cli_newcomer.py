"""A newcomer's first commands: no silent example model, ``init``, ``--example``, ``--version``."""
from __future__ import annotations

import pytest

from gpudash import cli
from gpudash.model.load import DEFAULT_MODEL

NO_MODEL = "gpudash: no gpudash.yaml here: pass -c FILE, or run `gpudash init` to start from the example\n"


@pytest.mark.parametrize("argv", [
    ["render", "-o", "out"], ["validate"], ["test"],
    ["report", "billing", "--prometheus-url", "http://127.0.0.1:9", "--start", "2026-01-01T00:00:00Z",
     "--end", "2026-01-02T00:00:00Z"],
    ["mock", "bill", "-f", "mock.yaml"], ["grafana-bootstrap", "--grafana-url", "http://127.0.0.1:9", "--dry-run"],
])
def test_no_model_is_an_error_not_the_example(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    assert capsys.readouterr() == ("", NO_MODEL)
    assert list(tmp_path.iterdir()) == []  # nothing written beside the user's files


def test_init_never_overwrites(tmp_path, capsys):
    (tmp_path / DEFAULT_MODEL).write_text("mine\n")
    assert cli.main(["init", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already exists" in err and str(tmp_path / DEFAULT_MODEL) in err
    assert (tmp_path / DEFAULT_MODEL).read_text() == "mine\n"
    assert not (tmp_path / cli.SCHEMA_FILE).exists()


def test_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out == f"gpudash {version('gpudash')}\n"

