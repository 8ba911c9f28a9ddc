"""One spoke rule of this checkout against the same rule at a base commit, in one run on the same data: the fleet's
history (benchmarks/fleet.py, from its ``--cache``), one Prometheus (Debian 2.42) on 127.0.0.1, both expressions
as the metrics-collector's instant query at the push time, alternating, each run ``--repeat`` times. Not part of
the test suite.

    python benchmarks/rule_versions.py --base 2ce89bb --cache /tmp/gs/fleet/cache \\
        --record node:gpudash_gpus_active:max_previous_hour

The base's rules come from a detached worktree of ``--base`` (its own code renders them for the same fleet model);
the two results must be the same series and values, or the comparison says where they differ.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import fleet  # noqa: E402
from benchmarks.run import base_worktree, drop_worktree  # noqa: E402
from e2e.harness import Prometheus  # noqa: E402
from gpudash.ops.mock.config import parse_time  # noqa: E402

_RULES = ("import json; from benchmarks import fleet; from gpudash.render.rules import spoke; "
          "print(json.dumps({r.record: r.expr for r in spoke.rules(fleet.model(fleet.TENANTS))}))")


def rules_at(checkout: Path) -> dict[str, str]:
    """{record: expr} of the spoke rules the code in ``checkout`` renders for the fleet model."""
    out = subprocess.run([sys.executable, "-c", _RULES], cwd=checkout, env={"PYTHONPATH": str(checkout), "PATH": ""},
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="the commit to compare against")
    ap.add_argument("--record", required=True, help="the spoke rule's recorded series name")
    ap.add_argument("--cache", required=True, help="benchmarks/run.py --only fleet --cache DIR: the fleet history")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args(argv)
    blocks = [d for d in Path(args.cache).iterdir() if d.name.startswith("fleet-")]
    if not blocks:
        raise SystemExit(f"{args.cache}: no fleet history; run benchmarks/run.py --only fleet --cache {args.cache}")
    work = Path(tempfile.mkdtemp(prefix="gpudash-rule-versions-"))
    base = base_worktree(work, args.base)
    try:
        exprs = {"base": rules_at(base)[args.record], "this": rules_at(ROOT)[args.record]}
    finally:
        drop_worktree(base)
    t = parse_time(fleet.shards(10_000, fleet.TENANTS)[0]["start"]) + fleet.HISTORY_MINUTES * 60
    prom = Prometheus(work / "spoke")
    for block in blocks[0].iterdir():
        if (block / "meta.json").exists():
            shutil.copytree(block, prom.data / block.name)
    prom.start()
    seconds: dict[str, list[float]] = {"base": [], "this": []}
    results = {}
    try:
        for _ in range(args.repeat):
            for tag, expr in exprs.items():
                t0 = time.perf_counter()
                results[tag] = dict(prom.query(expr, t))
                seconds[tag].append(time.perf_counter() - t0)
    finally:
        prom.stop()
        shutil.rmtree(work, ignore_errors=True)
    base, this = results["base"], results["this"]
    differ = [k for k in set(base) | set(this) if base.get(k) != this.get(k)]
    med = {tag: statistics.median(s) for tag, s in seconds.items()}
    print(f"{args.record}: base {args.base} {med['base']:.2f} s ({len(exprs['base']):,} bytes), this checkout "
          f"{med['this']:.2f} s ({len(exprs['this']):,} bytes): {med['this'] / med['base']:.2f}x; runs "
          f"{', '.join(f'{s:.1f}' for s in seconds['base'])} / {', '.join(f'{s:.1f}' for s in seconds['this'])}; "
          f"{len(results['this'])} series, {len(differ)} differing" + (f" e.g. {differ[:2]}" if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
