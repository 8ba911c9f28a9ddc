"""Where ``gpudash test`` spends its time: ``promtool test rules`` on each golden file of a rendered folder, one
process at a time, timed by the CPU seconds the process used (wall clock is meaningless on a shared machine).

    python benchmarks/promtool_files.py examples/rendered [--top 20] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gpudash.base import layout  # noqa: E402
from gpudash.ops.promtest import test_files  # noqa: E402


def kind(name: str) -> str:
    """A test file's kind: a golden kind (:func:`gpudash.base.layout.golden_kind_of`) or "alerts"."""
    return layout.golden_kind_of(name) if name.startswith("golden-") else "alerts"


def cpu_seconds(path: Path, promtool: str = "promtool") -> tuple[float, float, bool]:
    """CPU seconds (user + system) and wall seconds of ``promtool test rules`` on one file, and whether it passed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run([promtool, "test", "rules", path.name], cwd=path.parent, capture_output=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, proc.returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--json", help="write every file's figures here")
    args = parser.parse_args(argv)
    rows = []
    for path in test_files(args.folder):
        cpu, wall, ok = cpu_seconds(path)
        rows.append({"file": path.name, "cpu": round(cpu, 2), "wall": round(wall, 2), "ok": ok,
                     "bytes": path.stat().st_size})
    rows.sort(key=lambda r: -r["cpu"])
    total = sum(r["cpu"] for r in rows) or 1.0
    print(f"{len(rows)} files, {total:.1f} CPU s in all")
    print("| file | CPU s | share | KiB |\n|---|---:|---:|---:|")
    for r in rows[:args.top]:
        print(f"| {r['file']} | {r['cpu']:.1f} | {100 * r['cpu'] / total:.0f} % | {r['bytes'] // 1024} |")
    kinds: dict[str, list[float]] = {}
    for r in rows:
        kinds.setdefault(kind(r["file"]), []).append(r["cpu"])
    print("\n| kind | files | CPU s |\n|---|---:|---:|")
    for k, cpus in sorted(kinds.items(), key=lambda kc: -sum(kc[1])):
        print(f"| {k} | {len(cpus)} | {sum(cpus):.1f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
