"""Run ``gpudash render -c MODEL -o OUT`` in this (fresh) process and print one JSON line of measurements:
wall time and CPU time of the command (with its golden-test process's: CPU time is what to compare on a loaded
machine), the share of each phase (model load, each artifact family, writing), peak RSS (``VmHWM`` of /proc/self/status:
``resource.getrusage``'s ``ru_maxrss`` survives ``exec`` on Linux, so a probe started by a large parent would
report the parent's peak) and, with ``--tracemalloc``, the peak of Python allocations (slower).

    python benchmarks/render_probe.py MODEL OUT [--tracemalloc] [-- RENDER OPTIONS...]

Used by ``benchmarks/run.py`` (render scale); the phases are timed by wrapping the functions the command calls,
so the command itself runs unchanged.
"""
from __future__ import annotations

import functools
import json
import os
import resource
import sys
import time
from pathlib import Path

PROBE_ROOT = "GPUDASH_PROBE_ROOT"  # run.py measures a base commit too: the tree to import gpudash from
sys.path.insert(0, os.environ.get(PROBE_ROOT) or str(Path(__file__).resolve().parent.parent))


def _vm_hwm_kib() -> int:
    """Peak resident set size of this process image (KiB)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def _process_age() -> float:
    """Seconds since this process started (its start time in /proc/self/stat, clock ticks after boot: man 5 proc)."""
    start = int(Path("/proc/self/stat").read_text().rpartition(")")[2].split()[19])
    return float(Path("/proc/uptime").read_text().split()[0]) - start / os.sysconf("SC_CLK_TCK")


def main(argv: list[str]) -> int:
    model, out = argv[0], argv[1]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []  # more render options (render_cold.py: -j 1)
    trace = "--tracemalloc" in argv[:len(argv) - len(extra)]
    if trace:
        import tracemalloc

        tracemalloc.start()
    from gpudash import cli
    from gpudash import model as model_pkg
    from gpudash.render import writer
    from gpudash.render.targets import artifacts

    phases: dict[str, float] = {}

    def timed(name, fn):
        @functools.wraps(fn)
        def wrapper(*a, **kw):
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                phases[name] = phases.get(name, 0.0) + time.perf_counter() - t0
        return wrapper

    model_pkg.load_model = timed("load model", model_pkg.load_model)
    parts: dict[str, dict] = {}
    if hasattr(artifacts, "FAMILIES"):  # a base commit before content and delivery targets were split
        artifacts.FAMILIES = tuple(timed(f"generate {f.__module__.removeprefix('gpudash.')}", f)
                                   for f in artifacts.FAMILIES)
    else:
        from gpudash.render import content, targets

        content.build = timed("generate content", content.build)
        registry = getattr(targets, "registry", targets)  # DELIVER's module (the package's __init__ before #48)
        registry.DELIVER = {name: timed(f"deliver {name}", f) for name, f in registry.DELIVER.items()}
        split = targets.split
        targets.split = lambda *a, **kw: parts.update(split(*a, **kw)) or parts  # keeps which target wrote what
    writer.plan = timed("write (plan)", writer.plan)
    writer.apply = timed("write (apply)", writer.apply)
    t0, c0, k0 = time.perf_counter(), time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    rc = cli.main(["render", "-c", model, "-o", out, *extra])
    wall, cpu, kids = time.perf_counter() - t0, time.process_time() - c0, resource.getrusage(resource.RUSAGE_CHILDREN)
    age = _process_age()
    kids_cpu = kids.ru_utime - k0.ru_utime + kids.ru_stime - k0.ru_stime
    own = resource.getrusage(resource.RUSAGE_SELF)
    row = {"rc": rc, "seconds": round(wall, 3), "cpu_seconds": round(cpu + kids_cpu, 3),
           # from this process's start (interpreter, imports) to the render's end: what `time gpudash render` shows
           # (the CLI ends without Python's teardown: gpudash/__main__.py)
           "process_seconds": round(age, 2),
           "child_cpu_seconds": round(kids_cpu, 3),
           # system time (file creation, page faults) of this process and its children since the start of the
           # process: what varies with the disk's state, not with the render's code
           "sys_seconds": round(own.ru_stime + kids.ru_stime, 3),
           "phases": {k: round(v, 3) for k, v in phases.items()},
           "peak_rss_mb": round(_vm_hwm_kib() / 1024, 1),
           # the largest of the golden tests' workers (gpudash.render.golden.orchestrate), forked after the model
           # was loaded: its peak counts the pages it shares with this process too
           "child_peak_rss_mb": round(kids.ru_maxrss / 1024, 1),
           "files": sum(1 for p in Path(out).rglob("*") if p.is_file()),
           "bytes": sum(p.stat().st_size for p in Path(out).rglob("*") if p.is_file()),
           # per delivery target ("always": the content's own files); a file two targets deliver counts for both
           "bytes_by_target": {name: sum((Path(out) / p).stat().st_size for p in part if (Path(out) / p).is_file())
                               for name, part in sorted(parts.items())}}
    if trace:
        row["tracemalloc_peak_mb"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
    print("RENDER_PROBE " + json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
