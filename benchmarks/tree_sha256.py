"""The sha256 of every file of a rendered output tree, one ``<sha256>  <path>`` line per file in path order (the
format of ``sha256sum``), and with ``--against LIST`` the files whose hash differs from an earlier list: proof that a
speed-up renders byte-identical output (issue #45). By hand, never a timed test.

    python benchmarks/tree_sha256.py OUT > before.sha256
    python benchmarks/tree_sha256.py OUT --against before.sha256   # exit 1 listing what changed
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path


def hashes(root: Path) -> dict[str, str]:
    """Each file's path under ``root`` -> the sha256 of its bytes."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", type=Path)
    ap.add_argument("--against", type=Path, help="an earlier list: print the paths that differ, exit 1 if any")
    args = ap.parse_args(argv)
    now = hashes(args.root)
    if args.against is None:
        sys.stdout.write("".join(f"{h}  {p}\n" for p, h in now.items()))
        return 0
    before = dict(reversed(line.split("  ", 1)) for line in args.against.read_text().splitlines())
    changed = sorted(p for p in before.keys() | now.keys() if before.get(p) != now.get(p))
    sys.stdout.write("".join(f"differs: {p}\n" for p in changed) + f"{len(now)} files, {len(changed)} differ\n")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
