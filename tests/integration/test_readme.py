"""The README's first commands, run as a newcomer would: in a copy of the repository, with the system's
externally managed python3 (PEP 668: Debian 12's /usr/bin/python3 here) first on PATH, the setup line installs
gpudash into its virtual environment and the demo reaches a bill and an invoice, writing nothing into the copy;
the test line gets as far as tox on that same interpreter. In a folder of its own, ``init`` then ``render`` make a
model and its output."""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
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


SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"  # a stock PATH: no other Python
PIP_BUILD = {"build/", "gpudash.egg-info/"}  # what `pip install .` leaves in the source tree (both in .gitignore)


@pytest.fixture(scope="session")
def newcomer_home(tmp_path_factory) -> Path:
    """One HOME per test session: the README's ~/.venvs/gpudash is made once."""
    return tmp_path_factory.mktemp("home")


def on_the_system_python(home: Path, temp: Path) -> dict[str, str]:
    """A newcomer's environment: the system's PATH, its python3 externally managed, or the test skips."""
    env = {"PATH": SYSTEM_PATH, "HOME": str(home), "TMPDIR": str(temp), "LANG": "C.UTF-8",
           "PIP_CACHE_DIR": str(Path.home() / ".cache" / "pip")}  # downloads shared with the machine's pip
    stdlib = subprocess.run(["python3", "-c", "import sysconfig; print(sysconfig.get_path('stdlib'))"], env=env,
                            capture_output=True, text=True)
    if stdlib.returncode or not (Path(stdlib.stdout.strip()) / "EXTERNALLY-MANAGED").is_file():
        pytest.skip("the system's python3 carries no EXTERNALLY-MANAGED marker (PEP 668)")
    refused = subprocess.run(["python3", "-m", "pip", "install", "--dry-run", "--no-index", "gpudash"], env=env,
                             capture_output=True, text=True)
    assert refused.returncode != 0 and ("externally-managed-environment" in refused.stderr
                                        or "No module named pip" in refused.stderr), refused.stderr
    return env


def test_the_first_two_commands_on_an_externally_managed_python(tmp_path, newcomer_home):
    if not (shutil.which("prometheus", path=SYSTEM_PATH) and shutil.which("promtool", path=SYSTEM_PATH)):
        pytest.skip("the demo needs prometheus and promtool (the setup line would apt-get install them)")
    setup, suite = [line for line in BLOCKS[0].splitlines() if line.strip()]
    assert commands(suite) == [["bash", "scripts/test.sh"]] and "scripts/test.sh" in (ROOT / ".ci" / "run").read_text()
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = on_the_system_python(newcomer_home, temp)
    clone = copy_of_the_repository(tmp_path / "clone")

    r = subprocess.run(["bash", "-c", setup], cwd=clone, capture_output=True, text=True, timeout=900, env=env)
    assert r.returncode == 0, r.stderr
    assert "GPU billing" in r.stdout and "Totals (" in r.stdout, r.stdout  # the bill
    statements = [Path(line.split(": ", 1)[1]) for line in r.stdout.splitlines() if line.startswith("statement: ")]
    assert statements and all(p.is_file() and temp in p.parents for p in statements)  # invoices, outside the repo
    status = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=clone, capture_output=True,
                            text=True, check=True).stdout
    left = {line[3:] for line in status.splitlines() if "__pycache__" not in line}
    assert left <= PIP_BUILD and all(line.startswith("!! ") for line in status.splitlines()), status

    # the test line on the same interpreter, up to tox itself (its tests are the rest of this suite)
    r = subprocess.run([*commands(suite)[0], "--version"], cwd=clone, capture_output=True, text=True, timeout=600,
                       env=env)
    assert r.returncode == 0 and re.match(r"\d+\.\d+", r.stdout), (r.stdout, r.stderr)


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
