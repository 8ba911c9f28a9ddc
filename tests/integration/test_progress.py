"""Progress on stderr only when stderr is a terminal (#14 point 7)."""
from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios

from tests.conftest import ROOT

DATA = ROOT / "e2e" / "data"


def run_on_a_terminal(*args: str) -> str:
    """The command's stderr when it is a pseudo-terminal (stdout a pipe, as in `gpudash ... > file`)."""
    main, sub = pty.openpty()
    fcntl.ioctl(sub, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a 100-column terminal
    proc = subprocess.Popen([sys.executable, "-m", "gpudash", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=sub, text=True)
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


def test_render_shows_progress_while_it_writes_on_a_terminal_only(tmp_path):
    """The files' part of a render (the golden tests arrive there) is on the bar too, not only the building."""
    shown = run_on_a_terminal("render", "--example", "-o", str(tmp_path / "a"))
    assert "gpudash: render: files" in shown and "gpudash: render: rules" in shown
    quiet = subprocess.run([sys.executable, "-m", "gpudash", "render", "--example", "-o", str(tmp_path / "b")],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert quiet.returncode == 0 and quiet.stderr == ""
