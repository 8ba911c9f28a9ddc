"""Run rendered promtool test files in parallel and report failures readably (`gpudash test`)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import yaml

from gpudash.base import layout


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


# promtool's garbage collector target. Go collects when the heap has grown by GOGC % since the last collection
# (golang/go src/runtime/extern.go, "GOGC"; default 100). A unit test allocates short-lived query results at every
# evaluation of every rule, so collection is a large share of promtool's CPU: on the example's golden files 200
# cut it by about a quarter for half again the peak memory (docs/performance.md), and 400 saved little more for
# twice the memory. The user's own GOGC or GOMEMLIMIT (src/runtime/extern.go, "GOMEMLIMIT") wins.
GC_PERCENT = "200"


def promtool_env(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The environment ``promtool`` runs in: the caller's, with :data:`GC_PERCENT` unless it tunes Go's GC itself."""
    env = dict(environ)
    if "GOGC" not in env and "GOMEMLIMIT" not in env:
        env["GOGC"] = GC_PERCENT
    return env


def run_file(path: Path, promtool: str = "promtool") -> Result:
    """``promtool test rules`` on one file (it resolves ``rule_files`` relative to the file)."""
    start = time.monotonic()
    proc = subprocess.run([promtool, "test", "rules", path.name], cwd=path.parent, capture_output=True, text=True,
                          env=promtool_env())
    seconds = time.monotonic() - start
    return Result(path.name, proc.returncode == 0, seconds, () if proc.returncode == 0 else _failures(proc, path))


def _failures(proc: subprocess.CompletedProcess, path: Path) -> tuple[str, ...]:
    """Split promtool's output into one block per failed check, naming the test group."""
    text = proc.stdout + proc.stderr
    groups = _group_names(path)
    blocks: list[str] = []
    current: list[str] = []
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


def _verdicts(output: str) -> list[bool]:
    """Per file, in argument order, whether ``promtool test rules`` passed it: promtool tests the files one after
    another and prints ``  SUCCESS`` or ``  FAILED:`` once for each (2.42 and 3.x alike; prometheus/prometheus
    cmd/promtool/unittest.go, RulesUnitTest / RulesUnitTestResult)."""
    return [line == "  SUCCESS" for line in output.splitlines() if line in ("  SUCCESS", "  FAILED:")]


def run_batch(paths: list[Path], promtool: str = "promtool") -> list[Result]:
    """One ``promtool test rules`` process for ``paths`` (one folder): a result per file, each failed file run
    again alone so its failures are its own. A file's seconds are its share of the batch, by size."""
    start = time.monotonic()
    proc = subprocess.run([promtool, "test", "rules", *(p.name for p in paths)], cwd=paths[0].parent,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=promtool_env())
    seconds = time.monotonic() - start
    verdicts = _verdicts(proc.stdout)
    if len(verdicts) != len(paths) or (proc.returncode == 0) != all(verdicts):
        verdicts = [False] * len(paths)  # output not as expected (promtool failed as a whole): run each alone
    total = sum(p.stat().st_size for p in paths) or 1
    return [Result(p.name, True, seconds * p.stat().st_size / total, ()) if ok else run_file(p, promtool)
            for p, ok in zip(paths, verdicts)]


def _batches(files: list[Path], count: int) -> list[list[Path]]:
    """``files`` in at most ``count`` batches of about equal total size (largest first into the lightest)."""
    batches: list[list[Path]] = [[] for _ in range(min(count, len(files)))]
    sizes = [0] * len(batches)
    for f in sorted(files, key=lambda p: -p.stat().st_size):
        i = sizes.index(min(sizes))
        batches[i].append(f)
        sizes[i] += f.stat().st_size
    return batches


BATCHES_PER_JOB = 4  # fewer promtool processes, yet a job that finishes early still finds work


def run_promtool_tests(directory, jobs: int | None = None, promtool: str = "promtool",
                       progress=None) -> list[Result]:
    """Run every test file of ``directory`` with up to ``jobs`` (default: CPU count) ``promtool`` processes at a
    time, each testing a batch of files (about equal sizes, the largest batches first); results in file name
    order. ``progress(done, total, what)`` is told of each file finished."""
    files = test_files(directory)
    workers = jobs or os.cpu_count() or 1
    batches = sorted(_batches(files, workers * BATCHES_PER_JOB), key=lambda b: -sum(p.stat().st_size for p in b))
    results: list[Result] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for batch in pool.map(lambda b: run_batch(b, promtool), batches):
            for result in batch:
                results.append(result)
                if progress:
                    progress(len(results), len(files), result.file)
    return sorted(results, key=lambda r: r.file)


def report(results: list[Result], out=sys.stdout) -> int:
    """Print failures and a summary; 0 when everything passed, 1 otherwise (0 files is a failure)."""
    failed = [r for r in results if not r.ok]
    for r in failed:
        print(r, file=out)
    print(f"gpudash: {len(results) - len(failed)}/{len(results)} golden test files passed", file=out)
    return 1 if failed or not results else 0
