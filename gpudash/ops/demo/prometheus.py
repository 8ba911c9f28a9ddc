"""A real Prometheus on 127.0.0.1: start/stop by PID, queries at explicit times, and backfill of OpenMetrics
history and of recording rules. ``gpudash demo`` runs on it; the end-to-end tests use it through e2e/harness.py,
which picks the pinned Prometheus versions (toolsets)::

    with Prometheus(tmp_path / "prom", rule_files=[...]) as prom:      # own config, data dir, free port
        prom.backfill_openmetrics(day_files)                            # promtool per file, blocks moved in
        prom.backfill_rules([spoke, hub], start, end)                   # one promtool pass per dependency level
        prom.query("sum(x)", time=end)                                  # [(labels, value)]

Facts this relies on (shared/reference/toolchain.md): backfilled blocks are deleted at startup unless
retention is long (``--storage.tsdb.retention.time=3650d``); OpenMetrics input is split per day (promtool
re-reads a file once per 2 h block) and ends with ``# EOF``; ``promtool tsdb create-blocks-from rules``
evaluates every rule as a range query against this server, so a rule reading another rule's output needs that
output loaded first: one pass per dependency level, with a restart on the new blocks in between; backfilled
data has no staleness markers; always query with an explicit time.
"""
from __future__ import annotations

import concurrent.futures
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import yaml

from gpudash.ops.demo.rule_levels import rule_key, rule_levels
from gpudash.ops.demo.rule_timing import group_eval_start, labels_encoding

RETENTION = "3650d"
READY_TIMEOUT = 60.0


class ToolMissing(RuntimeError):
    """The prometheus or promtool binary is not there."""


def build_info(binary: str | None) -> tuple[str | None, frozenset[str]]:
    """(version, Go build tags) from ``binary --version``; (None, {}) when it does not run."""
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30).stdout if binary else ""
    except OSError:
        out = ""
    version = re.search(r"version (\S+)", out)
    tags = re.search(r"tags:\s*(\S+)", out)
    return (version[1] if version else None), frozenset(tags[1].split(",") if tags else ())


@dataclass(frozen=True)
class Binaries:
    """The ``prometheus`` and ``promtool`` a server runs with, and how that build hashes labels."""

    prometheus: str
    promtool: str
    labels_encoding: str = "slicelabels"

    @classmethod
    def on_path(cls) -> Binaries:
        """The PATH's prometheus and promtool; raises :class:`ToolMissing`."""
        prometheus, promtool = shutil.which("prometheus"), shutil.which("promtool")
        if not (prometheus and promtool):
            raise ToolMissing("prometheus and promtool are not on PATH (Debian/Ubuntu: apt-get install prometheus)")
        return cls(prometheus, promtool, labels_encoding(*build_info(prometheus)))


def go_env(gogc: int | None) -> dict[str, str] | None:
    """The environment of a Prometheus or promtool process: this one's, with ``GOGC`` set when ``gogc`` is given
    (None: inherit as is). GOGC is the Go runtime's garbage collection target percentage, 100 by default: a
    collection starts once the heap has grown by that share of what the last one left live
    (golang/go src/runtime/extern.go), so a higher one trades peak memory for fewer collections."""
    return None if gogc is None else {**os.environ, "GOGC": str(gogc)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class QueryError(RuntimeError):
    pass


def _labels(metric: dict) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(metric.items()))


class Prometheus:
    """One Prometheus server on 127.0.0.1 with its own config, data dir and free port.

    ``rule_files`` are loaded normally (evaluated live); ``config_extra`` is merged into the generated
    ``prometheus.yml`` (e.g. ``{"scrape_configs": [...], "global": {...}}``); ``args`` are extra flags
    (e.g. ``--query.lookback-delta=1m``); ``binaries`` picks the build (default: PATH's); ``gogc`` sets the Go
    runtime's ``GOGC`` of the server and of the promtool runs of its backfills (:func:`go_env`; None: inherited).
    """

    def __init__(self, workdir, rule_files=(), config_extra: dict | None = None, args=(),
                 binaries: Binaries | None = None, gogc: int | None = None):
        self.env = go_env(gogc)
        self.binaries = binaries or Binaries.on_path()
        self.prometheus, self.promtool = self.binaries.prometheus, self.binaries.promtool
        self.workdir = Path(workdir)
        self.data = self.workdir / "data"
        self.data.mkdir(parents=True, exist_ok=True)
        self.rule_files = [str(Path(f).resolve()) for f in rule_files]
        self.config_extra = config_extra or {}
        self.args = list(args)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.log_path = self.workdir / "prometheus.log"
        self.timings: dict[str, float] = {}  # step -> seconds (backfills, restarts), for reports

    # --- lifecycle ---------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _write_config(self) -> Path:
        cfg: dict = {"global": {"scrape_interval": "1m", "evaluation_interval": "1m"}, "rule_files": self.rule_files,
               "scrape_configs": []}
        for key, value in self.config_extra.items():
            if isinstance(value, dict) and isinstance(cfg.get(key), dict):
                cfg[key] = {**cfg[key], **value}
            else:
                cfg[key] = value
        path = self.workdir / "prometheus.yml"
        path.write_text(yaml.safe_dump(cfg, sort_keys=False))
        return path

    def start(self) -> Prometheus:
        if self.proc is not None:
            return self
        config = self._write_config()
        log = open(self.log_path, "ab")
        cmd = [self.prometheus, f"--config.file={config}", f"--storage.tsdb.path={self.data}",
               f"--storage.tsdb.retention.time={RETENTION}", f"--web.listen-address=127.0.0.1:{self.port}",
               "--web.enable-lifecycle", "--query.max-samples=200000000", "--query.timeout=10m", *self.args]
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True, env=self.env)
        log.close()
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.proc = None
                raise RuntimeError(f"prometheus exited at startup; log:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/-/ready", timeout=2) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"prometheus not ready after {READY_TIMEOUT}s; log:\n{self.log_tail()}")

    def stop(self) -> None:
        """SIGTERM the server by its PID (SIGKILL after 30 s); safe to call twice."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def restart(self) -> None:
        t0 = time.monotonic()
        self.stop()
        self.start()
        self.timings["restart"] = self.timings.get("restart", 0.0) + time.monotonic() - t0

    def reload(self) -> None:
        """Re-read the config (rule files, scrape configs) without a restart."""
        self._write_config()
        self._post("/-/reload")

    def __enter__(self) -> Prometheus:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    # --- HTTP API ----------------------------------------------------------------------------------------
    def _post(self, path: str, params: dict | None = None) -> dict | str:
        data = urllib.parse.urlencode(params or {}).encode()
        req = urllib.request.Request(f"{self.url}{path}", data=data, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=600) as r:
                body = r.read().decode()
        except urllib.error.HTTPError as err:
            body = err.read().decode()
            try:
                raise QueryError(f"{path}: {json.loads(body).get('error', body)}") from None
            except json.JSONDecodeError:
                raise QueryError(f"{path}: HTTP {err.code}: {body[:300]}") from None
        try:
            return json.loads(body)
        except json.JSONDecodeError:
            return body

    def api(self, path: str, **params) -> dict:
        out = self._post(f"/api/v1/{path}", params)
        if not isinstance(out, dict) or out.get("status") != "success":
            raise QueryError(f"{path} {params}: {out}")
        return out["data"]

    def query(self, expr: str, time: float) -> list[tuple[tuple[tuple[str, str], ...], float]]:
        """Instant query at ``time`` (Unix seconds; always explicit): [(sorted label pairs, value)].
        A scalar result is returned as one row with no labels."""
        data = self.api("query", query=expr, time=repr(float(time)))
        if data["resultType"] == "vector":
            return [(_labels(r["metric"]), float(r["value"][1])) for r in data["result"]]
        if data["resultType"] == "scalar":
            return [((), float(data["result"][1]))]
        raise QueryError(f"unexpected result type {data['resultType']}")

    def query_range(self, expr: str, start: float, end: float, step: float):
        """Range query: [(sorted label pairs, [(t, value), ...])]; split into chunks of at most 10,000 steps
        (Prometheus rejects more than 11,000 points per series)."""
        out: dict[tuple, list] = {}
        chunk = 10_000 * step
        t = start
        while t <= end:
            stop = min(end, t + chunk - step)
            data = self.api("query_range", query=expr, start=repr(float(t)), end=repr(float(stop)), step=repr(step))
            for r in data["result"]:
                out.setdefault(_labels(r["metric"]), []).extend((float(ts), float(v)) for ts, v in r["values"])
            t = stop + step
        return sorted(out.items())

    def samples(self, selector: str, start: float, end: float) -> list:
        """Raw stored samples of ``selector`` in ``(start, end]`` (Prometheus 2 also returns one at ``start``:
        its ranges are left-closed): [(sorted label pairs, [(t, value)])]."""
        data = self.api("query", query=f"{selector}[{int(round((end - start) * 1000))}ms]", time=repr(float(end)))
        return sorted((_labels(r["metric"]), [(float(t), float(v)) for t, v in r["values"]]) for r in data["result"])

    def series_count(self) -> int:
        return int(self.api("status/tsdb")["headStats"]["numSeries"])

    # --- backfill ----------------------------------------------------------------------------------------
    def _move_blocks(self, outdir: Path) -> int:
        moved = 0
        for block in list(outdir.rglob("meta.json")):
            target = self.data / block.parent.name
            if not target.exists():
                shutil.move(str(block.parent), target)
                moved += 1
        return moved

    def backfill_openmetrics(self, files, jobs: int | None = None, max_block_duration: str | None = "24h") -> int:
        """``promtool tsdb create-blocks-from openmetrics`` for every file (one per day), ``jobs`` in parallel,
        then move the blocks into the data dir and (re)start the server on them. Returns the block count.

        ``max_block_duration`` is promtool's hidden ``--max-block-duration`` (present in 2.42): promtool reads
        its input once per block it writes, so a day file written as one or two blocks instead of twelve 2 h
        blocks imports about three times faster and leaves the server far fewer blocks to open and compact."""
        t0 = time.monotonic()
        files = [Path(f) for f in files]
        staging = self.workdir / "staging-om"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()

        def one(i_f):
            i, f = i_f
            out = staging / f"{i:05d}"
            flags = [f"--max-block-duration={max_block_duration}"] if max_block_duration else []
            r = subprocess.run([self.promtool, "tsdb", "create-blocks-from", "openmetrics", "-q", *flags, str(f),
                                str(out)], capture_output=True, text=True, env=self.env)
            if r.returncode:
                raise RuntimeError(f"promtool openmetrics {f}: {r.stderr.strip()[-2000:]}")

        with concurrent.futures.ThreadPoolExecutor(jobs or os.cpu_count() or 2) as pool:
            list(pool.map(one, enumerate(files)))
        self.stop()
        moved = self._move_blocks(staging)
        shutil.rmtree(staging, ignore_errors=True)
        self.start()
        self.timings["backfill_openmetrics"] = self.timings.get("backfill_openmetrics", 0.0) + time.monotonic() - t0
        return moved

    def backfill_rules(self, rule_files, start: float, end: float, eval_interval: float | None = None,
                       method: str = "promtool") -> list[list[str]]:
        """Backfill recording rules over ``[start, end]``: rules are split into dependency levels by the
        recorded names each expr reads (:func:`rule_levels`), and each level is one
        ``promtool tsdb create-blocks-from rules`` pass against this server, its blocks moved in and the server
        restarted before the next level. Groups keep their names and intervals; ``eval_interval`` (seconds),
        when given, replaces every group's interval. Alerting rules are skipped (promtool does not evaluate
        them). Returns the records per level.

        ``method="query"`` does each pass without promtool's block writer: the same range queries promtool
        issues (each rule's expr, step = the group interval, timestamps at a per-group offset), written as
        OpenMetrics per day and imported with :meth:`backfill_openmetrics`. promtool writes one TSDB block per
        rule per 2 h window (measured here: about 30 ms each, so a month of the 80-rule hub file is ~30,000
        blocks and a quarter of an hour); the query method writes one block per 2 h window in all, and gives
        the same samples (``e2e/test_harness.py`` checks that on a short window)."""
        groups = []
        for f in rule_files:
            groups += yaml.safe_load(Path(f).read_text())["groups"]
        levels = rule_levels(groups)
        if self.proc is None:
            self.start()
        out_levels = []
        for n, level in enumerate(levels, 1):
            t0 = time.monotonic()
            level_groups = []
            for g in groups:
                rules = [r for r in g["rules"]
                         if "record" in r and r["record"] in level and rule_key(g, r) in level[r["record"]]]
                if rules:
                    interval = f"{int(eval_interval)}s" if eval_interval else g.get("interval", "1m")
                    level_groups.append({"name": g["name"], "interval": interval, "rules": rules})
            if method == "query":
                self._backfill_level_by_query(level_groups, start, end, n)
                self.timings[f"backfill_rules_level_{n}"] = time.monotonic() - t0
                out_levels.append(sorted(level))
                continue
            path = self.workdir / f"backfill-level-{n}" / LEVEL_FILE
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(yaml.safe_dump({"groups": level_groups}, sort_keys=False, width=1 << 20))
            outdir = self.workdir / f"staging-rules-{n}"
            shutil.rmtree(outdir, ignore_errors=True)
            cmd = [self.promtool, "tsdb", "create-blocks-from", "rules", "-q", f"--url={self.url}",
                   f"--start={int(start)}", f"--end={int(end)}", f"--output-dir={outdir.resolve()}",
                   f"--eval-interval={int(eval_interval or 60)}s", LEVEL_FILE]
            r = subprocess.run(cmd, capture_output=True, text=True, cwd=path.parent, env=self.env)
            if r.returncode:
                raise RuntimeError(f"promtool rules backfill level {n}: {r.stderr.strip()[-3000:]}")
            self.stop()
            self._move_blocks(outdir)
            shutil.rmtree(outdir, ignore_errors=True)
            self.start()
            self.timings[f"backfill_rules_level_{n}"] = time.monotonic() - t0
            out_levels.append(sorted(level))
        return out_levels


    def _range_like_promtool(self, expr: str, first: float, end: float, interval: float):
        """Range evaluation of a rule: one query for the whole span, except for exprs with an ``@`` modifier,
        which are queried per 2 h block exactly as promtool does (``@ start()``/``@ end()`` are the query's
        range ends, so a longer range would change their value; an instant evaluation by the rule manager
        uses the evaluation time)."""
        if not has_at_modifier(expr):
            return self.query_range(expr, first, end, interval)
        out: dict[tuple, list] = {}
        block = 7200
        b = first - first % block
        while b <= end:
            s = first if first >= b else first + -(-(b - first) // interval) * interval
            e = min(b + block - 0.001, end)
            if s <= e:
                for labels, samples in self.query_range(expr, s, e, interval):
                    out.setdefault(labels, []).extend(samples)
            b += block
        return sorted(out.items())

    def _backfill_level_by_query(self, groups: list[dict], start: float, end: float, n: int) -> None:
        from gpudash.model.durations import parse_duration
        from gpudash.ops.mock.openmetrics import FamilyBuffer

        days: dict[int, FamilyBuffer] = {}
        for g in groups:
            interval = parse_duration(g["interval"])
            first = group_eval_start(g["name"], interval, start, LEVEL_FILE, self.binaries.labels_encoding)
            for rule in g["rules"]:
                extra = {"__name__": rule["record"], **{k: str(v) for k, v in (rule.get("labels") or {}).items()}}
                # Result series that differ only by __name__ (e.g. "a or b" keeps b's name) become one series
                # once renamed to the record, as in the rule manager; merge them in time order.
                by_key: dict[tuple, dict] = {}
                for labels, samples in self._range_like_promtool(rule["expr"], first, end, interval):
                    key = tuple(sorted({**dict(labels), **extra}.items()))
                    by_key.setdefault(key, {}).update(samples)
                for key, by_t in by_key.items():
                    by_day: dict[int, list] = {}
                    for t in sorted(by_t):
                        by_day.setdefault(int(t // 86400), []).append((t, by_t[t]))
                    for day, rows in by_day.items():
                        days.setdefault(day, FamilyBuffer()).add(key, rows)
        staging = self.workdir / f"staging-query-{n}"
        shutil.rmtree(staging, ignore_errors=True)
        # Few files with long blocks: promtool reads a file once per block it writes (see backfill_openmetrics).
        files, merged, _size = [], FamilyBuffer(), 0
        for day, buf in sorted(days.items()):
            for name, lines in buf.families.items():
                merged.families.setdefault(name, []).extend(lines)
            merged.samples += buf.samples
            if merged.samples >= 2_000_000:
                files.append(merged.write(staging / f"{day}.om"))
                merged = FamilyBuffer()
        files.append(merged.write(staging / "last.om"))
        self.backfill_openmetrics([f for f in files if f], max_block_duration="2000h")
        shutil.rmtree(staging, ignore_errors=True)


def has_at_modifier(expr: str) -> bool:
    """Whether ``expr`` uses an ``@`` modifier (``@ start()``, ``@ end()``, ``@ <time>``)."""
    import promql_parser as pp

    from gpudash.promql.lint import nodes

    return any(getattr(node, "at", None) is not None for node in nodes(pp.parse(expr)))


# The file name every level's rules are backfilled from (promtool runs in the level's own folder): a group's
# evaluation times hash its file and name (:func:`group_eval_start`), so with one name for every level a rule reading
# an earlier level's samples of the same evaluation (the spoke tier's rules after its first) finds them at its own
# timestamps, as in the rule manager, which runs the whole group at once.
LEVEL_FILE = "backfill.rules.yaml"
