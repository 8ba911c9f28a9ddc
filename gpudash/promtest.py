"""Run rendered promtool test files in parallel and report failures readably (`gpudash test`; a runtime tool)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import yaml

from gpudash import layout


@dataclass(frozen=True)
class Result:
    file: str
    ok: bool
    seconds: float
    failures: tuple[str, ...]  # one readable block per failed check: test group, expr, exp and got lines

    def __str__(self) -> str:
        head = f"{'ok  ' if self.ok else 'FAIL'} {self.file} ({self.seconds:.1f} s)"
        return "\n".join([head, *(f"  {f}" for f in self.failures)])


def test_files(directory) -> list[Path]:
    """The promtool test files of a rendered folder (its ``tests/``) or of a folder of tests."""
    root = Path(directory)
    tests = root / layout.TESTS
    return sorted((tests if tests.is_dir() else root).glob(layout.TEST_GLOB))


def run_file(path: Path, promtool: str = "promtool") -> Result:
    """``promtool test rules`` on one file (it resolves ``rule_files`` relative to the file)."""
    start = time.monotonic()
    proc = subprocess.run([promtool, "test", "rules", path.name], cwd=path.parent, capture_output=True, text=True)
    seconds = time.monotonic() - start
    return Result(path.name, proc.returncode == 0, seconds, () if proc.returncode == 0 else _failures(proc, path))


def _failures(proc: subprocess.CompletedProcess, path: Path) -> tuple[str, ...]:
    """Split promtool's output into one block per failed check, naming the test group."""
    text = proc.stdout + proc.stderr
    groups = _group_names(path)
    blocks, current = [], []
    for line in text.splitlines():
        if re.match(r"\s*(expr|alertname):", line) and current:
            blocks.append("\n".join(current))
            current = []
        if re.match(r"\s*(expr|alertname|exp|got):", line) or (current and line.strip()):
            current.append(line.strip())
    if current:
        blocks.append("\n".join(current))
    if not blocks:
        return (text.strip() or f"promtool exited {proc.returncode}",)
    where = " | ".join(groups)
    return tuple(f"[{where}]\n    " + b.replace("\n", "\n    ") for b in blocks)


def _group_names(path: Path) -> list[str]:
    """Test group names of a test file (promtool 2.42 does not name the group of a failure)."""
    return [str(g.get("name", "?")) for g in (yaml.safe_load(path.read_text()) or {}).get("tests", [])]


def run_promtool_tests(directory, jobs: int | None = None, promtool: str = "promtool",
                       progress=None) -> list[Result]:
    """Run every test file of ``directory`` with up to ``jobs`` (default: CPU count) ``promtool`` processes,
    largest files (the longest runs) first; results in file name order. ``progress(done, total, what)`` is told
    of each file finished."""
    files = sorted(test_files(directory), key=lambda p: -p.stat().st_size)
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        results = []
        for result in pool.map(lambda f: run_file(f, promtool), files):
            results.append(result)
            if progress:
                progress(len(results), len(files), Path(result.file).name)
        return sorted(results, key=lambda r: r.file)


def report(results: list[Result], out=sys.stdout) -> int:
    """Print failures and a summary; 0 when everything passed, 1 otherwise (0 files is a failure)."""
    failed = [r for r in results if not r.ok]
    for r in failed:
        print(r, file=out)
    print(f"gpudash: {len(results) - len(failed)}/{len(results)} golden test files passed", file=out)
    return 1 if failed or not results else 0
