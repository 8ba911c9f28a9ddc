"""Cold render benchmark (issue #45): ``gpudash render`` with no golden cache (``GPUDASH_CACHE=off``) of the bundled
example and of a 1,000-tenant, 20-cluster, 8-class model, with ``-j 1`` and the default, for this tree and a base
commit in one run; and the golden emission alone (``emit_tests``, one process) of each model. By hand, never a
timed test.

    python benchmarks/render_cold.py [--base 7f06edf] [--repeat 1] [--work DIR] [--no-bytecode]

Each render is a fresh process (benchmarks/render_probe.py: wall, CPU with the golden tests' forked process, peak
RSS); the rows of the two trees alternate, so both see the same load. The large model is the bundled example with
996 generated tenants added to its 4 (budgets and thresholds as benchmarks/run.py's render scale), 18 clusters added
to its 2 and 4 GPU classes added to its 4 (:func:`large_model`). Both trees' outputs are compared file by file
(``identical``). Writes benchmarks/render_cold.md (a section of benchmarks/RESULTS.md, kept there by run.py) and
prints it.

A render creates thousands of files, and on this machine's ext4, mounted without a journal, what a new file costs
depends on the files deleted on the disk in the last minutes, by anyone: the inode allocator skips each inode freed
less than 60 s ago (360 s while its inode table block is dirty), testing them one by one from the start of the
block group for every file it creates (torvalds/linux fs/ext4/ialloc.c: ``recently_deleted``, ``find_inode_bit``,
called only when ``s_journal`` is NULL). So each row says what creating a file cost just before it (``new file
us``: 200 files of 4 KB in a fresh folder of the work folder, kept), the outputs are kept until the end (deleting
them would slow the rows after), and ``--work`` can put everything on another filesystem (``/dev/shm``: the render
without the disk).

Python's bytecode: an installed gpudash runs from the bytecode pip compiled when it installed it, and a clone writes
its ``__pycache__`` on its first run; this machine sets ``PYTHONDONTWRITEBYTECODE=1``, so every render here would
compile gpudash's modules from source (0.3-0.5 s of CPU, part of it before the golden workers fork). By default both
trees are compiled once into a folder of the run (``PYTHONPYCACHEPREFIX``) before any row, and every render reads it,
as an installed gpudash does; ``--no-bytecode`` measures the source-compiling renders instead.
"""
from __future__ import annotations

import argparse
import filecmp
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "benchmarks" / "render_probe.py"
SECTION = Path(__file__).with_name("render_cold.md")
EXAMPLE = ROOT / "gpudash" / "examples" / "gpudash.yaml"  # the bundled example (gpudash.model.load)
# the classes added to the example's 4: products the catalogue's "unknown product" scenarios do not use
EXTRA_CLASSES = [
    {"name": "h200", "vendor": "nvidia", "products": ["NVIDIA H200"], "price_per_hour": 5.6},
    {"name": "l4", "vendor": "nvidia", "products": ["NVIDIA L4"], "price_per_hour": 0.7},
    {"name": "a10", "vendor": "nvidia", "products": ["NVIDIA A10"], "price_per_hour": 0.9},
    {"name": "mi325x", "vendor": "amd", "products": ["AMD Instinct MI325X OAM"], "price_per_hour": 4.6},
]


def large_model(path: Path, tenants: int = 1000, clusters: int = 20) -> Path:
    """The example grown to ``tenants`` tenants, ``clusters`` clusters and 8 GPU classes, written to ``path``."""
    import yaml

    raw = yaml.safe_load(EXAMPLE.read_text())
    raw["tenants"] += [{"name": f"t{i:05d}", "namespace": f"tenant-{i:05d}", "budget": 1000 + i,
                        "alert_at": [0.5, 0.9, 1.0]} for i in range(tenants - len(raw["tenants"]))]
    raw["clusters"] += [f"prod-{i:02d}" for i in range(clusters - len(raw["clusters"]))]
    raw["gpu_classes"] += EXTRA_CLASSES
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    return path


def bytecode_env(pycache: Path | None) -> dict[str, str]:
    """The environment of a render: with ``pycache``, Python reads (and writes) bytecode there, as an installed
    package runs; without, the machine's own (this one forbids writing bytecode: the module's docstring)."""
    env = dict(os.environ)
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def compile_tree(root: Path, pycache: Path) -> None:
    """The bytecode of ``root``'s gpudash package, written under ``pycache`` (what pip does when it installs)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "gpudash")], env=bytecode_env(pycache),
                   check=True, capture_output=True)


def render(root: Path, model: Path, out: Path, jobs: int | None, pycache: Path | None = None) -> dict:
    """One cold render in a fresh process importing gpudash from ``root``: the probe's measurements."""
    extra = ["--", "-j", str(jobs)] if jobs else []
    env = {**bytecode_env(pycache), "GPUDASH_CACHE": "off", "GPUDASH_PROBE_ROOT": str(root), "PYTHONPATH": str(root)}
    r = subprocess.run([sys.executable, str(PROBE), str(model), str(out), *extra], capture_output=True, text=True,
                       cwd=root, env=env)
    line = next((x for x in r.stdout.splitlines() if x.startswith("RENDER_PROBE ")), None)
    if r.returncode or line is None:
        raise RuntimeError(f"render failed ({root}): {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
    return json.loads(line.removeprefix("RENDER_PROBE "))


def emission(root: Path, model: Path, pycache: Path | None = None) -> dict:
    """The golden emission alone (``emit_tests``), one process importing gpudash from ``root``: its CPU seconds and
    the process's peak RSS."""
    env = {**bytecode_env(pycache), "PYTHONPATH": str(root)}
    r = subprocess.run([sys.executable, __file__, "--emit-probe", str(model)], capture_output=True, text=True,
                       cwd=root, env=env, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def _emit_probe(model: str) -> None:
    from gpudash.model.load import load_model
    from gpudash.render.golden.emit import emit_tests

    loaded = load_model(model)
    c0 = time.process_time()
    files = emit_tests(loaded)
    cpu = time.process_time() - c0
    hwm = next(int(x.split()[1]) for x in Path("/proc/self/status").read_text().splitlines() if x.startswith("VmHWM"))
    print(json.dumps({"emit_cpu_seconds": round(cpu, 2), "files": len(files), "peak_rss_mb": round(hwm / 1024, 1)}))


def identical(a: Path, b: Path) -> bool:
    """Whether two output trees hold the same files with the same bytes."""
    def walk(cmp: filecmp.dircmp) -> bool:
        _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
        return (not (cmp.left_only or cmp.right_only or mismatch or errors or cmp.funny_files)
                and all(walk(sub) for sub in cmp.subdirs.values()))
    return walk(filecmp.dircmp(a, b))


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} / {five:.1f}"


def new_file_us(folder: Path, n: int = 200) -> float:
    """Microseconds to create, write and close one new 4 KB file in ``folder`` (made here; the files are kept: see
    the module's docstring)."""
    folder.mkdir(parents=True)
    blob = b"x" * 4096
    t0 = time.perf_counter()
    for i in range(n):
        fd = os.open(folder / f"f{i:03d}", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, blob)
        os.close(fd)
    return round((time.perf_counter() - t0) / n * 1e6, 1)


def run(base: str, repeat: int, jobs_list: tuple[int | None, ...] = (1, None), where: str | None = None,
        bytecode: bool = True) -> dict:
    work = Path(tempfile.mkdtemp(prefix="gpudash-render-cold-", dir=where))
    commit = subprocess.run(["git", "rev-parse", "--short", base], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip()
    tree = work / "base-tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), commit], cwd=ROOT, check=True,
                   capture_output=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    models = {"example": EXAMPLE, "1,000 tenants, 20 clusters, 8 classes": large_model(work / "large.yaml")}
    trees = {f"base {commit}": tree, f"this {head}": ROOT}
    pycache = work / "pycache" if bytecode else None
    rows: list[dict] = []
    try:
        for root in trees.values() if pycache else ():
            compile_tree(root, pycache)
        for name, model in models.items():
            for jobs in jobs_list:
                for i in range(repeat):
                    for label, root in trees.items():
                        out = work / f"out-{len(rows)}"
                        row = {"model": name, "jobs": jobs or "default", "tree": label, "run": i, "load": _load(),
                               "new_file_us": new_file_us(work / f"probe-{len(rows)}"),
                               **render(root, model, out, jobs, pycache)}
                        rows.append(row)
            pair = [r for r in rows if r["model"] == name]
            same = identical(work / f"out-{rows.index(pair[0])}", work / f"out-{rows.index(pair[1])}")
            for label, root in trees.items():
                rows.append({"model": name, "tree": label, "load": _load(), "emission": emission(root, model, pycache),
                             "identical": same})
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    return {"base": commit, "head": head, "rows": rows, "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            "work": str(Path(where or tempfile.gettempdir())), "bytecode": bytecode}


def markdown(res: dict) -> str:
    out = ["## 7. Cold render: the example and 1,000 tenants (issue #45)", "",
           f"{res['date']}, {res['machine']}, shared with other work (load average 1 / 5 min in each row). "
           f"`python benchmarks/render_cold.py --base {res['base']}`: `gpudash render` with `GPUDASH_CACHE=off`, "
           "each a fresh process (benchmarks/render_probe.py; CPU includes the golden tests' forked process), base "
           f"{res['base']} and this tree ({res['head']}) alternating. The large model is the example with 996 "
           "generated tenants, 18 clusters and 4 GPU classes added. "
           + ("Both trees' bytecode compiled before the first row, as an installed gpudash has it."
              if res.get("bytecode") else "Every render compiles gpudash's modules from source "
              "(`--no-bytecode`: this machine's `PYTHONDONTWRITEBYTECODE=1`)."), "",
           f"Outputs in {res.get('work', 'the temporary folder')}; `new file us`: creating one file there just "
           "before the render (benchmarks/render_cold.py: what the disk's recent deletions cost); `sys s`: the "
           "render's system time.", "",
           "`wall s`: the command's (`cli.main`, gpudash's modules imported before it, as the earlier figures); "
           "`process s`: from the process's start to the render's end, what `time gpudash render` shows.", "",
           "| model | -j | tree | wall s | process s | CPU s | sys s | new file us | peak RSS MB (golden process) "
           "| load |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in (r for r in res["rows"] if "seconds" in r):
        out.append(f"| {r['model']} | {r['jobs']} | {r['tree']} | {r['seconds']:.1f} | "
                   f"{r.get('process_seconds', float('nan')):.1f} | {r['cpu_seconds']:.1f} | "
                   f"{r.get('sys_seconds', float('nan')):.1f} | {r.get('new_file_us', float('nan')):.0f} | "
                   f"{r['peak_rss_mb']:.0f} ({r['child_peak_rss_mb']:.0f}) | {r['load']} |")
    out += ["", "The golden emission alone (`emit_tests`, one process, no fork): its CPU time and the process's peak "
            "RSS; whether both trees rendered byte-identical output.", "",
            "| model | tree | emission CPU s | peak RSS MB | files | output identical to base | load |",
            "|---|---|---:|---:|---:|---|---|"]
    for r in (r for r in res["rows"] if "emission" in r):
        e = r["emission"]
        out.append(f"| {r['model']} | {r['tree']} | {e['emit_cpu_seconds']:.1f} | {e['peak_rss_mb']:.0f} | "
                   f"{e['files']} | {'yes' if r['identical'] else 'NO'} | {r['load']} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--emit-probe"]:
        _emit_probe(argv[1])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="7f06edf", help="the commit to compare with (default: 7f06edf)")
    ap.add_argument("--repeat", type=int, default=1, help="renders per model, -j and tree")
    ap.add_argument("--default-jobs-only", action="store_true", help="no -j 1 renders (a busy machine's shorter run)")
    ap.add_argument("--work", help="the folder to render into (default: the temporary folder; /dev/shm: no disk)")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="renders compile gpudash from source, as this machine's PYTHONDONTWRITEBYTECODE=1 makes them")
    args = ap.parse_args(argv)
    res = run(args.base, args.repeat, (None,) if args.default_jobs_only else (1, None), args.work,
              not args.no_bytecode)
    SECTION.with_suffix(".json").write_text(json.dumps(res, indent=1) + "\n")
    SECTION.write_text(markdown(res))
    print(markdown(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
