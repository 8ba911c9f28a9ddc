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



def test_render_writes_a_folder_of_its_own_by_default():
    from gpudash.base.layout import DEFAULT_OUTPUT

    assert cli._parser().parse_args(["render"]).output == DEFAULT_OUTPUT != "."


@pytest.mark.parametrize("marker", ["pyproject.toml", ".git"])
def test_render_refuses_a_project_root_before_any_work(marker, tmp_path, capsys):
    """A clone's root (or any repository's) is never an output folder: nothing written, one line, at once."""
    (tmp_path / marker).mkdir() if marker == ".git" else (tmp_path / marker).write_text("[project]\n")
    before = sorted(tmp_path.iterdir())
    assert cli.main(["render", "--example", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds a project gpudash did not create" in err and marker in err
    assert sorted(tmp_path.iterdir()) == before


def test_render_into_a_folder_it_owns_is_not_refused(tmp_path):
    from gpudash.base.layout import MANIFEST

    (tmp_path / ".git").mkdir()
    (tmp_path / MANIFEST).write_text("{}")
    cli._refuse_foreign_project(str(tmp_path))  # a GitOps repository gpudash already renders into


def _commands(parser, words=()):
    """(words, parser) of every command and subcommand, e.g. (("report",), ...), (("report", "billing"), ...)."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield (*words, name), child
                yield from _commands(child, (*words, name))


def test_every_command_has_help_examples_that_parse():
    """`gpudash CMD [SUB] --help` ends with examples, and each example is a command line the parser accepts and
    that names that very command (report billing, nodes, idle and the mock's three included)."""
    import shlex

    from gpudash.ops.cliargs import EXAMPLES_HEADING

    parser = cli._parser()
    commands = parser._subparsers._group_actions[0].choices
    assert set(commands) == set(cli.HELP)
    for name, (summary, _) in cli.HELP.items():
        assert summary.split()[-1] not in {"the", "a", "and", "of", "with"}, f"{name}: a summary cut mid-sentence"
    every = list(_commands(parser))
    assert len(every) >= len(cli.HELP) + 6, every  # report's and mock's three subcommands each
    for words, command in every:
        text = command.format_help()
        assert EXAMPLES_HEADING in text, f"gpudash {' '.join(words)} --help has no examples"
        examples = [line.strip() for line in text.split(f"\n{EXAMPLES_HEADING}\n", 1)[1].splitlines() if line.strip()]
        assert examples, words
        for line in examples:
            argv = shlex.split(line.split("  #")[0].split(" > ")[0])
            if argv[0] != "gpudash":
                continue  # e.g. the token's export
            assert tuple(argv[1:1 + len(words)]) == words, (words, line)
            parser.parse_args([a.replace("URL", "http://127.0.0.1:9090") for a in argv[1:]])


def test_a_hand_edit_is_refused_before_any_work(tmp_path, monkeypatch, capsys):
    """The refusal comes at once, not after the whole render (artifacts.generate is never reached)."""
    import hashlib
    import json

    from gpudash.base.layout import MANIFEST
    from gpudash.render.targets import artifacts

    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "a.yaml").write_text("edited\n")
    digest = hashlib.sha256(b"written\n").hexdigest()
    (tmp_path / MANIFEST).write_text(json.dumps({"generator": "gpudash", "files": {"rules/a.yaml": digest}}))
    monkeypatch.setattr(artifacts, "generate", lambda *a, **k: pytest.fail("generated before refusing"))
    assert cli.main(["render", "--example", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rules/a.yaml: edited by hand since gpudash wrote it" in err and "--force" in err
