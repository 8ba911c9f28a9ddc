"""Mock files: a GPU topology (node pools) and a workload, compiled into a simulation scenario.

```yaml
start: 2026-10-01T00:00:00Z      # UTC time of minute 0 (history); the live server maps minute 0 to its start
duration: 32d                    # history length (live: how long the timeline runs; later minutes repeat nothing)
seconds_per_minute: 60           # live only: wall-clock seconds per scenario minute (e.g. 5 = 12x faster)
node_pools:
  - name: a100                   # nodes are named <name>-<i>
    cluster: 0                   # index into the gpudash model's clusters (default 0)
    class: a100-80gb             # a GPU class of the model ...
    product: NVIDIA Tesla T4     # ... or a literal product (unpriced unless a class lists it); both: that product
    vendor: nvidia               # nvidia | amd (default: the class's)
    nodes: 2
    gpus: 8                      # per node
    memory: 81920                # MiB per GPU (DCGM FB_FREE, AMD total VRAM)
    mig: {strategy: mixed, layout: {1g: 7}}          # or {strategy: single, profile: 1g, instances: 7}
    time_slicing: {rename: true}                     # the class's replicas; rename=false: <product>-SHARED
                                 # (with mig: time-sliced MIG slices, replicas labels per GFD)
    partition: {name: cpx_nps4, per_gpu: 8, strategy: single}   # AMD compute partitions (mixed: amd.com/<name>)
    exporter: dcgm               # dcgm | amd | none (default: by vendor): which exporter serves this pool
workload:
  - name: trainer                # a pod (replicas: N gives trainer-0..N-1 on consecutive nodes)
    tenant: 0                    # model tenant by index in the model file's order, or namespace: <literal>
    pool: a100
    node: 0                      # node index in the pool
    owner: {kind: Deployment, name: trainer}         # Deployment | StatefulSet | Job | bare
    containers: [{name: main, requests: {gpu: 2}}]   # gpu | shared | mig-1g | literal resource names
    init_containers: []          # an entry with restart_policy: Always is a native sidecar
    lifecycle: [{at: 0m, phase: Pending}, {at: 2m, phase: Running}, {at: 3d, phase: Succeeded},
                {at: 3d5m, deleted: true}, {at: 1h, restart: true}]
    utilisation: {schedule: [{percent: 80, for: 1h}, {percent: 0, for: 1h}], repeat: 5, then: 0}
                                 # or a number, or [{at: 10m, percent: 50}, ...] (from the first event)
  - jobs:                        # a stream of short jobs: Pending, Running for `run`, then Succeeded/Failed
      name: etl
      tenant: 1
      pool: a100
      every: 47m                 # a new job every 47 minutes from `start` until `until`
      start: 5m
      until: 31d
      pending: 2m
      run: 13m
      jitter: 6m                 # run length varies by up to +-jitter (deterministic, from `seed`)
      seed: 7
      end_phase: Succeeded       # or Failed; every 'fail_every'-th job fails
      fail_every: 0
      delete_after: 3m           # deleted this long after it ends
      requests: {gpu: 1}
      nodes: 1                   # spread over the first N nodes of the pool
faults: []                       # simulation fault kinds: missed_scrapes, ksm_restart, exporter_gap, ...
gpu_faults:                      # DCGM_FI_DEV_XID_ERRORS of one GPU (0 otherwise)
  - {pool: a100, node: 1, gpu: 3, at: 20d, minutes: 30, xid: 79}
```

Every time is whole minutes (``90m``, ``3h``, ``1d2h``). The compiled :class:`Mock` holds the simulation
:class:`~gpudash.simulation.scenario.Scenario` (so the reference model bills it) plus what the scenario has no
field for (GPU memory, which exporter serves each node, the calendar start).
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import yaml

from gpudash.base.capped import read_capped
from gpudash.base.errors import InputError
from gpudash.model import vendors
from gpudash.model.types import Model
from gpudash.promql.read import HOUR
from gpudash.simulation import scenario as sc

MAX_BYTES = 4 * 2**20  # a mock file at most (the e2e month's is 12 KB)

def exporters() -> tuple[str, ...]:
    """What may serve a pool: a registered vendor's exporter (by its ``source`` key), or none."""
    return (*(v.source for v in vendors.VENDORS.values()), "none")


@dataclass(frozen=True)
class Mock:
    scenario: sc.Scenario
    start: int  # Unix seconds of minute 0
    seconds_per_minute: float  # live server only
    memory: dict  # (cluster, node) -> MiB per GPU
    exporter: dict  # (cluster, node) -> a vendor's source (dcgm | amd) or none
    source: str = "<dict>"
    gpu_faults: tuple = ()  # (cluster, node, gpu index, from minute, to minute, XID code)

    def at(self, minute: float) -> float:
        """Unix seconds of a scenario minute."""
        return self.start + minute * 60


def parse_time(value) -> int:
    """An RFC 3339 time, a date or Unix seconds -> Unix seconds."""
    if isinstance(value, (int, float)):
        return int(value)
    if isinstance(value, datetime):
        return int(value.replace(tzinfo=value.tzinfo or UTC).timestamp())
    text = str(value).strip().replace("Z", "+00:00")
    t = datetime.fromisoformat(text)
    return int((t if t.tzinfo else t.replace(tzinfo=UTC)).timestamp())


def load(path, model: Model) -> Mock:
    path = Path(path)
    try:
        text = read_capped(path, MAX_BYTES)  # never a FIFO, never a device read to its end
        if text is None:
            raise FileNotFoundError(2, "No such file or directory")
        raw = yaml.safe_load(text)
    except OSError as err:
        raise InputError(str(path), "", f"cannot read the mock file: {err.strerror or err}") from None
    except InputError as err:
        raise InputError(str(path), "", f"cannot read the mock file: it {err.reason}") from None
    except yaml.YAMLError as err:
        raise InputError(str(path), "", str(err)) from None
    return compile_mock(raw, model, str(path))


def compile_mock(raw: dict, model: Model, source: str = "<dict>") -> Mock:
    """The raw mock description bound to ``model``; InputError names the problem."""
    try:
        return _compile(raw, model, source)
    except sc.Skip as why:
        raise InputError(source, "", f"the model cannot run this mock: {why}") from None
    except (KeyError, TypeError, ValueError) as err:
        raise InputError(source, "", f"{type(err).__name__}: {err}") from None


def _compile(raw: dict, model: Model, source: str) -> Mock:
    if not isinstance(raw, dict):
        raise ValueError("a mock file is a mapping with node_pools and workload")
    pools = {p["name"]: p for p in raw.get("node_pools", ())}
    nodes, memory, exporter, literal = [], {}, {}, {}
    for p in raw.get("node_pools", ()):
        gpu, product = _gpu(p, model)
        kind = p.get("exporter") or vendors.vendor(_vendor(p, gpu, model)).source
        if kind not in exporters():
            raise ValueError(f"pool {p['name']}: exporter must be one of {exporters()}")
        for i in range(int(p.get("nodes", 1))):
            name = f"{p['name']}-{i}"
            node = {"name": name, "cluster": p.get("cluster", 0), "gpu": gpu, "count": int(p.get("gpus", 8))}
            if p.get("mig"):
                node["mig"] = p["mig"]
            if p.get("time_slicing"):
                node["time_slicing"] = p["time_slicing"]
            if p.get("partition"):
                node["partition"] = p["partition"]
            nodes.append(node)
            literal[(p.get("cluster", 0), name)] = product
            memory[(p.get("cluster", 0), name)] = int(p.get("memory", 81920))
            exporter[(p.get("cluster", 0), name)] = kind
    pods = []
    for w in raw.get("workload", ()):
        pods += _jobs(w["jobs"], pools, model) if "jobs" in w else _pods(w, pools, model)
    clusters = 1 + max([n["cluster"] for n in nodes] + [p.get("cluster", 0) for p in pods], default=0)
    scenario_raw = {"name": raw.get("name", Path(source).stem), "protects": raw.get("description", "mock cluster"),
                    "duration": raw.get("duration", "1d"), "clusters": clusters, "nodes": nodes, "pods": pods,
                    "faults": raw.get("faults", [])}
    s = sc.resolve(scenario_raw, model)
    fixed = tuple(dataclasses.replace(n, product=literal[(s.clusters.index(n.cluster), n.name)] or n.product)
                  for n in s.nodes)
    s = dataclasses.replace(s, nodes=fixed)
    key = {(i, n): (s.clusters[i], n) for i, n in literal}
    gpu_faults = []
    for f in raw.get("gpu_faults", ()):
        node_name, cluster = _node_of(f, pools)
        at = sc.minutes(f["at"])
        gpu_faults.append((s.clusters[cluster], node_name, int(f.get("gpu", 0)), at,
                           at + sc.minutes(f.get("minutes", 10)), int(f.get("xid", 79))))
    start = parse_time(raw.get("start", 0))
    if start % HOUR:
        raise ValueError("start must be a whole UTC hour (billing hours are clock hours)")
    return Mock(s, start, float(raw.get("seconds_per_minute", 60)),
                {key[k]: v for k, v in memory.items()}, {key[k]: v for k, v in exporter.items()}, source,
                tuple(gpu_faults))


def _vendor(pool: dict, gpu: dict, model: Model) -> str:
    """The pool's vendor: its own, its product's, its class's, else the first registered (NVIDIA)."""
    named = pool.get("vendor") or gpu.get("vendor")
    by_class = next((c.vendor for c in model.gpu_classes if c.name == pool.get("class")), None)
    return named or by_class or next(iter(vendors.VENDORS))


def _gpu(pool: dict, model: Model) -> tuple[dict, str | None]:
    """The scenario node ``gpu`` requirement of a pool and the literal product to show (None: the class's)."""
    product = pool.get("product")
    if "class" in pool:
        return {"class": pool["class"]}, product
    owner = next((c for c in model.gpu_classes if product in c.products), None)
    if owner is not None:
        return {"class": owner.name}, product
    if product is None:
        raise ValueError(f"pool {pool['name']}: give a class or a product")
    return {"product": product, "vendor": pool.get("vendor", next(iter(vendors.VENDORS)))}, product


def _node_of(w: dict, pools: dict, index: int = 0) -> tuple[str, int]:
    pool = pools[w["pool"]]
    n = int(pool.get("nodes", 1))
    return f"{pool['name']}-{(int(w.get('node', 0)) + index) % n}", pool.get("cluster", 0)


def _namespace(w: dict, model: Model) -> dict:
    """``tenant: N``, the N-th tenant as the model file lists them (not by name), or ``namespace: <literal>``."""
    if "tenant" not in w:
        return {"namespace": w["namespace"]}
    tenants = model.tenants_in_file_order()
    index = w["tenant"]
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(tenants):
        listed = ", ".join(f"{i} = {t.name}" for i, t in enumerate(tenants))
        raise ValueError(f"workload {w['name']}: tenant {index!r} is no index into the model's tenants ({listed}); "
                         "use namespace: for a literal namespace")
    return {"namespace": tenants[index].namespace}


def utilisation_steps(spec, first: int = 0) -> list[dict] | float:
    """A utilisation description -> scenario steps ``[{at, percent}]`` (minutes) or a constant.

    ``{schedule: [{percent: 80, for: 1h}, {percent: 0, for: 1h}], repeat: 5, from: 10m, then: 0}``: the
    schedule runs ``repeat`` times from ``first`` (+ ``from``), then stays at ``then``."""
    if spec is None or isinstance(spec, (int, float)):
        return 100.0 if spec is None else float(spec)
    if isinstance(spec, list):
        return [{"at": first + sc.minutes(s["at"]), "percent": float(s["percent"])} for s in spec]
    at = first + sc.minutes(spec.get("from", 0))
    out = []
    for _ in range(int(spec.get("repeat", 1))):
        for step in spec["schedule"]:
            out.append({"at": at, "percent": float(step["percent"])})
            at += sc.minutes(step["for"])
    out.append({"at": at, "percent": float(spec.get("then", 0))})
    return out


def _pods(w: dict, pools: dict, model: Model) -> list[dict]:
    out = []
    replicas, namespace = int(w.get("replicas", 1)), _namespace(w, model)
    for r in range(replicas):
        node, cluster = _node_of(w, pools, r)
        events = [dict(e) for e in w["lifecycle"]]
        first = min(sc.minutes(e["at"]) for e in events)
        pod = {"name": w["name"] if replicas == 1 and "replicas" not in w else f"{w['name']}-{r}", **namespace,
               "node": node, "cluster": cluster, "owner": w.get("owner", {"kind": "bare"}),
               "containers": w.get("containers") or [{"name": "main", "requests": w.get("requests", {"gpu": 1})}],
               "init_containers": w.get("init_containers", []), "lifecycle": events,
               "utilisation": utilisation_steps(w.get("utilisation"), first)}
        if "uid" in w:
            pod["uid"] = w["uid"]
        out.append(pod)
    return out


def _jobs(j: dict, pools: dict, model: Model) -> list[dict]:
    """A deterministic stream of short jobs."""
    rng = random.Random(j.get("seed", 0))
    every, run, jitter = sc.minutes(j["every"]), sc.minutes(j["run"]), sc.minutes(j.get("jitter", 0))
    pending, delete_after = sc.minutes(j.get("pending", 0)), sc.minutes(j.get("delete_after", 2))
    start, until = sc.minutes(j.get("start", 0)), sc.minutes(j["until"])
    spread, fail_every = int(j.get("nodes", 1)), int(j.get("fail_every", 0))
    out, k, t, namespace = [], 0, start, _namespace(j, model)
    while t < until:
        length = max(1, run + (rng.randint(-jitter, jitter) if jitter else 0))
        node, cluster = _node_of({**j, "node": j.get("node", 0)}, pools, k % spread)
        failed = fail_every and (k + 1) % fail_every == 0
        end_phase = "Failed" if failed else j.get("end_phase", "Succeeded")
        running = t + pending
        events = ([{"at": t, "phase": "Pending"}] if pending else []) + [
            {"at": running, "phase": "Running"}, {"at": running + length, "phase": end_phase},
            {"at": running + length + delete_after, "deleted": True}]
        out.append({"name": f"{j['name']}-{k:05d}", **namespace, "node": node, "cluster": cluster,
                    "owner": {"kind": "Job", "name": f"{j['name']}-{k:05d}"},
                    "containers": [{"name": "main", "requests": j.get("requests", {"gpu": 1})}],
                    "lifecycle": events, "utilisation": utilisation_steps(j.get("utilisation", 90), running)})
        k += 1
        t += every
    return out
