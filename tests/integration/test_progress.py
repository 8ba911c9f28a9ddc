"""Progress on stderr: a bar on a terminal (#14 point 7), golden emission included; off a terminal one line per
step over a few seconds, with its elapsed time (#44 point 4)."""
from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios

from gpudash import cli
from gpudash.base import progress
from gpudash.base.progress import LINE, QUIET_SECONDS
from tests.conftest import ROOT

DATA = ROOT / "e2e" / "data"


NO_CACHE = {**os.environ, "GPUDASH_CACHE": "off"}  # the golden tests emitted afresh, as on a first render


def run_on_a_terminal(*args: str, env: dict | None = None) -> str:
    """The command's stderr when it is a pseudo-terminal (stdout a pipe, as in `gpudash ... > file`)."""
    main, sub = pty.openpty()
    fcntl.ioctl(sub, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a 100-column terminal
    proc = subprocess.Popen([sys.executable, "-m", "gpudash", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=sub, text=True, env=env)
    os.close(sub)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.communicate(timeout=300)
    os.close(main)
    assert proc.returncode == 0
    return b"".join(chunks).decode(errors="replace")


def test_mock_history_shows_progress_on_a_terminal_only(tmp_path):
    args = ("mock", "history", "-f", str(DATA / "live.mock.yaml"), "-c", str(DATA / "model.yaml"))
    shown = run_on_a_terminal(*args, "-o", str(tmp_path / "a"))
    assert "gpudash: mock history: " in shown and "/" in shown
    quiet = subprocess.run([sys.executable, "-m", "gpudash", *args, "-o", str(tmp_path / "b")], cwd=ROOT,
                           capture_output=True, text=True, timeout=300)
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_render_shows_progress_while_it_writes_and_emits_the_golden_tests(tmp_path):
    """The files' part of a render is on the bar too, and so is the golden emission the writer waits for (its
    scenarios one by one, not a bar frozen for 20 s); off a terminal, a line with the elapsed time at least every
    few seconds of a step, and the render's own output unchanged."""
    shown = run_on_a_terminal("render", "--example", "-o", str(tmp_path / "a"), env=NO_CACHE)
    assert "gpudash: render: files" in shown and "gpudash: render: rules" in shown
    assert "gpudash: render: golden tests" in shown, shown[-2000:]
    piped = subprocess.run([sys.executable, "-m", "gpudash", "render", "--example", "-o", str(tmp_path / "b")],
                           cwd=ROOT, capture_output=True, text=True, timeout=300, env=NO_CACHE)
    assert piped.returncode == 0 and piped.stdout.startswith(f"gpudash: {tmp_path / 'b'}: wrote "), piped.stdout
    lines = piped.stderr.splitlines()  # a cold render now takes about QUIET_SECONDS: lines or none
    assert all(LINE.fullmatch(line) for line in lines), piped.stderr
    assert "\r" not in piped.stderr and "\x1b" not in piped.stderr  # no bar drawn into a log
    elapsed = [float(LINE.fullmatch(line)[1]) for line in lines]
    assert all(e >= QUIET_SECONDS for e in elapsed), elapsed  # quiet steps print nothing


def test_render_off_a_terminal_prints_a_line_per_step_past_the_quiet_time(tmp_path, monkeypatch, capsys):
    """With a quiet time shorter than its steps, a render off a terminal prints its progress as lines, each with
    its elapsed time, and no bar."""
    monkeypatch.setattr(progress, "QUIET_SECONDS", 0.05)
    monkeypatch.setenv("GPUDASH_CACHE", "off")
    assert cli.main(["render", "--example", "-o", str(tmp_path / "c")]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert any("render: golden tests" in line for line in lines) and any("render: files" in line for line in lines)
    assert lines and all(LINE.fullmatch(line) for line in lines), lines
    assert not any("\r" in line or "\x1b" in line for line in lines)


def test_validate_shows_the_golden_emission_on_a_terminal():
    """validate and test emit the golden tests in process when the cache has none: on the bar, scenario by
    scenario (`gpudash test` shares this path, then shows each promtool file on its own bar)."""
    shown = run_on_a_terminal("validate", "--example", env=NO_CACHE)
    assert "gpudash: validate: golden tests" in shown, shown[-2000:]
