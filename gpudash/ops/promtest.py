"""Run rendered promtool test files in parallel and report failures readably (`gpudash test`)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
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
    again alone so its failures are its own. A file's seconds are its share of the batch, by :func:`cost`."""
    start = time.monotonic()
    proc = subprocess.run([promtool, "test", "rules", *(p.name for p in paths)], cwd=paths[0].parent,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=promtool_env())
    seconds = time.monotonic() - start
    verdicts = _verdicts(proc.stdout)
    if len(verdicts) != len(paths) or (proc.returncode == 0) != all(verdicts):
        verdicts = [False] * len(paths)  # output not as expected (promtool failed as a whole): run each alone
    costs = [cost(p) for p in paths]
    total = sum(costs) or 1
    return [Result(p.name, True, seconds * c / total, ()) if ok else run_file(p, promtool)
            for p, c, ok in zip(paths, costs, verdicts)]


def _batches(files: list[Path], count: int, weight: Callable[[Path], float] | None = None) -> list[list[Path]]:
    """``files`` in at most ``count`` batches of about equal ``weight`` (default :func:`cost`; the dearest first
    into the cheapest batch)."""
    weight = weight or cost
    batches: list[list[Path]] = [[] for _ in range(min(count, len(files)))]
    costs = [0.0] * len(batches)
    for f, c in sorted(((f, weight(f)) for f in files), key=lambda fc: -fc[1]):
        i = costs.index(min(costs))
        batches[i].append(f)
        costs[i] += c
    return batches


# A test file's promtool cost, from its text. promtool evaluates every rule group of each test group at every
# evaluation_interval from 0 to its last check, and prints and parses each rule's text again at each evaluation
# (prometheus/prometheus v2.42.0 and v3.5.3 cmd/promtool/unittest.go testGroup.test, rules/recording.go Eval): a
# step costs about the rule files' text plus the input series. Fitted to CPU seconds of the example's files
# (promtool 2.42): ~0.19 us per rule byte and ~18 us per input series a step, and ~0.3 s a file.
_INTERVAL = re.compile(r"^evaluation_interval: (\d+)m$", re.M)
_EVAL_TIME = re.compile(r"^\s+eval_time: (\d+)m$", re.M)
_GROUP = re.compile(r"^  - name: ", re.M)
_SERIES = re.compile(r"^      - series: ", re.M)
_RULE_FILE = re.compile(r"^  - (\S+\.ya?ml)$", re.M)
SERIES_PER_RULE_BYTE = 100  # an input series costs a step what about 100 bytes of rule text do
FILE_COST = 1_500_000  # a file's own cost (promtool's start, loading its series), in the same units (~0.3 s)


def cost(path: Path) -> float:
    """An estimate of ``promtool test rules`` on ``path``, in rule-text bytes evaluated: its groups' steps times its
    rule files' size plus its input series (:data:`SERIES_PER_RULE_BYTE`), plus :data:`FILE_COST`; a file whose text
    is not as gpudash writes it counts by its size."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return float(path.stat().st_size) if path.exists() else 0.0
    interval, times = _INTERVAL.search(text), [int(t) for t in _EVAL_TIME.findall(text)]
    if not interval or not times or int(interval.group(1)) <= 0:
        return float(len(text))
    steps = (max(times) // int(interval.group(1)) + 1) * max(1, len(_GROUP.findall(text)))
    rules = sum((path.parent / r).stat().st_size for r in _RULE_FILE.findall(text) if (path.parent / r).is_file())
    return steps * (rules + SERIES_PER_RULE_BYTE * len(_SERIES.findall(text))) + FILE_COST


BATCHES_PER_JOB = 4  # fewer promtool processes, yet a job that finishes early still finds work


def run_promtool_tests(directory, jobs: int | None = None, promtool: str = "promtool",
                       progress=None) -> list[Result]:
    """Run every test file of ``directory`` with up to ``jobs`` (default: CPU count) ``promtool`` processes at a
    time, each testing a batch of files (about equal estimated costs, the dearest batches first); results in file name
    order. ``progress(done, total, what)`` is told of each file finished."""
    files = test_files(directory)
    workers = jobs or os.cpu_count() or 1
    weights = {f: cost(f) for f in files}  # each file read once
    batches = sorted(_batches(files, workers * BATCHES_PER_JOB, weights.__getitem__),
                     key=lambda b: -sum(map(weights.__getitem__, b)))
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
