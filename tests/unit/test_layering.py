"""The layering contract: content generators never import runtime tools or HTTP clients, and ``gpudash --help``
does not load grafanalib.

Layers: model -> content generators (rules, alerts, grafana content, mco, mixin, golden emitter) -> delivery (the
writer); runtime tools (reports, pruner, doctor, demo, mock server, grafana-bootstrap) sit beside them and may
import generators, never the other way round. The import graph is read from the source (every ``import``, also
inside functions), so a lazy import cannot hide an edge.
"""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import gpudash

PACKAGE = Path(gpudash.__file__).resolve().parent
GENERATORS = ("gpudash.artifacts", "gpudash.rules", "gpudash.alerts", "gpudash.grafana", "gpudash.mco",
              "gpudash.mixin", "gpudash.model", "gpudash.promql", "gpudash.sources", "gpudash.golden.emit",
              "gpudash.layout", "gpudash.kube", "gpudash.yamlfmt")
RUNTIME = ("gpudash.report", "gpudash.prune", "gpudash.doctor", "gpudash.demo", "gpudash.mock",
           "gpudash.grafana.bootstrap", "gpudash.cli", "gpudash.writer", "requests", "jinja2")
# Pure PromQL builders of the reports (no I/O): render proves every tenant report query isolated, so the
# Grafana generator reads them. They belong in a shared query module; until then this is one exception. The
# pruner's deployment (prune/ output) is content built from the pruner's pure kinds/permissions table: the other.
ALLOWED = ("gpudash.report.queries", "gpudash.prune.deploy", "gpudash.prune.plan")


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _within(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _runtime(name: str) -> bool:
    """A runtime module; the package of an allowed module counts only through what its __init__ imports."""
    return (_within(name, RUNTIME) and not _within(name, ALLOWED)
            and not any(a.startswith(name + ".") for a in ALLOWED))


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """{gpudash module: every module it imports (a package import also imports the package's __init__)}."""
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + [base]).strip(".")
                edges.add(base)
                edges.update(f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules)
        # importing a.b.c runs a and a.b first
        graph[name] = {".".join(e.split(".")[:i]) for e in edges for i in range(1, e.count(".") + 2)} - {name}
    return graph


def reachable(graph: dict[str, set[str]], start: str) -> dict[str, str]:
    """{module: the module that imports it} for everything ``start`` loads, stopping at allowed exceptions."""
    seen, todo = {start: ""}, [start]
    while todo:
        current = todo.pop()
        for dep in graph.get(current, ()):
            if dep not in seen:
                seen[dep] = current
                if not _within(dep, ALLOWED):
                    todo.append(dep)
    return seen


def _chain(seen: dict[str, str], name: str) -> str:
    out = [name]
    while seen[out[-1]]:
        out.append(seen[out[-1]])
    return " <- ".join(out)


def test_generators_never_import_runtime_tools():
    graph = import_graph()
    generators = [m for m in graph if _within(m, GENERATORS) and not _runtime(m)]
    assert len(generators) > 40
    bad = []
    for module in generators:
        seen = reachable(graph, module)
        bad += [_chain(seen, m) for m in seen if _runtime(m)]
    assert not bad, "generators import runtime tools:\n" + "\n".join(sorted(set(bad)))


def test_the_import_graph_sees_lazy_and_relative_imports():
    """The check above can fail: a function-local import of a runtime tool is an edge."""
    graph = import_graph()
    assert "gpudash.grafana.panels" in graph["gpudash.grafana.isolation"]  # imported inside violations()
    assert "requests" in graph["gpudash.report.client"]
    assert "gpudash.report" in reachable(graph, "gpudash.doctor.cli")


