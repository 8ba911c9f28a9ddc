"""The README's first commands, run as a newcomer would: in a copy of the repository, the demo reaches a bill and
an invoice and writes nothing into it; in a folder of its own, ``init`` then ``render`` make a model and its
output. The system-package and pip steps are checked for their form (the test runs in the installed package's
environment and never reinstalls it)."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from gpudash.base.layout import DEFAULT_OUTPUT
from gpudash.model.load import DEFAULT_MODEL
from tests.conftest import ROOT

pytestmark = pytest.mark.slow
BLOCKS = re.findall(r"^```sh\n(.*?)^```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S | re.M)


def commands(block: str) -> list[list[str]]:
    """The block's command lines, comments dropped, each line's ``&&`` chain split into argv lists."""
    lines = [shlex.split(line, comments=True) for line in block.splitlines()]
    out = []
    for words in filter(None, lines):
        chain: list[str] = []
        for word in [*words, "&&"]:
            if word == "&&":
                out.append(chain)
                chain = []
            else:
                chain.append(word)
    return out


def python(argv: list[str]) -> list[str]:
    assert argv[0] == "python3", argv
    return [sys.executable, *argv[1:]]


def copy_of_the_repository(dest: Path) -> Path:
    """The working tree's tracked files in a new git repository with one commit (a clean clone of this tree)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, (f.decode() for f in files)):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    git = lambda *a: subprocess.run(["git", *a], cwd=dest, capture_output=True, check=True)  # noqa: E731
    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "clone")
    return dest


def test_the_first_two_commands_install_and_demo_then_test(tmp_path):
    if not (shutil.which("prometheus") and shutil.which("promtool")):
        pytest.skip("the demo needs prometheus and promtool on PATH")
    first, suite = commands(BLOCKS[0])[:3], commands(BLOCKS[0])[3:]
    apt, pip, demo = first
    assert apt[:3] == ["sudo", "apt-get", "install"] and "prometheus" in apt  # Debian's prometheus ships promtool
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert pip[:4] == ["python3", "-m", "pip", "install"] and pip[4] == ".[report]" and "report" in extras
    assert suite == [["bash", "scripts/test.sh"]] and "scripts/test.sh" in (ROOT / ".ci" / "run").read_text()

    clone = copy_of_the_repository(tmp_path / "clone")
    temp = tmp_path / "tmp"
    temp.mkdir()
    r = subprocess.run(python(demo), cwd=clone, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "TMPDIR": str(temp)})
    assert r.returncode == 0, r.stderr
    assert "GPU billing" in r.stdout and "Totals (" in r.stdout, r.stdout  # the bill
    statements = [Path(line.split(": ", 1)[1]) for line in r.stdout.splitlines() if line.startswith("statement: ")]
    assert statements and all(p.is_file() and temp in p.parents for p in statements)  # invoices, outside the repo
    status = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=clone, capture_output=True,
                            text=True, check=True).stdout
    assert [line for line in status.splitlines() if "__pycache__" not in line] == [], status


def test_a_model_of_ones_own_init_then_render(tmp_path):
    (block,) = [b for b in BLOCKS if "gpudash init" in b]
    mkdir, cd, init, render = commands(block)
    assert mkdir[:2] == ["mkdir", "-p"] and cd[0] == "cd" and mkdir[2] == cd[1]
    folder = tmp_path / "gpu-billing"
    folder.mkdir()
    for argv in (init, render):
        r = subprocess.run(python(argv), cwd=folder, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
    assert (folder / DEFAULT_MODEL).is_file() and (folder / DEFAULT_OUTPUT / ".gpudash-manifest.json").is_file()
