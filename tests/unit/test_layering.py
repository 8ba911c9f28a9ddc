"""The layering contract, read from the source (every ``import``, also inside functions, so a lazy import cannot
hide an edge):

model -> content generators (rules, alerts, dashboards, quotas, routing, golden tests) -> delivery targets
(gpudash/targets/, gpudash/artifacts.py) -> the writer. Each module belongs to one layer (LAYERS) and imports
only the layers MAY_IMPORT gives it. Runtime tools (reports, pruner, doctor, demo, mock, grafana-bootstrap, the
promtool runner, the CLI) sit beside them and may import any layer; no layer imports them. The simulation (the
test oracle) is imported by the golden emitter and the mock only. ``gpudash --help`` loads neither grafanalib
nor an extra's package.
"""
from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import pytest

import gpudash
from gpudash import cli

PACKAGE = Path(gpudash.__file__).resolve().parent
# module prefix -> layer; the longest prefix wins. A new module must be placed here (test_every_module_has_a_layer).
LAYERS = {
    **dict.fromkeys(("gpudash.errors", "gpudash.layout", "gpudash.promql", "gpudash.kube", "gpudash.yamlfmt",
                     "gpudash.doctable", "gpudash.deferred", "gpudash.terminal"),
                    "foundation"),  # paths, escaping, object helpers, the one serialiser, deferred files
    **dict.fromkeys(("gpudash.model", "gpudash.sources"), "model"),  # the typed model and the metric vocabularies
    **dict.fromkeys(("gpudash.rules", "gpudash.alerts", "gpudash.grafana", "gpudash.mco", "gpudash.mixin",
                     "gpudash.wiring", "gpudash.golden", "gpudash.prune.deploy", "gpudash.prune.plan",
                     # pure PromQL builders of the reports: render proves every tenant report query isolated
                     "gpudash.report.queries", "gpudash.content", "gpudash.quotas"), "content"),
    **dict.fromkeys(("gpudash.targets", "gpudash.artifacts", "gpudash.gitops"), "delivery"),
    "gpudash.writer": "writer",
    "gpudash.simulation": "simulation",
    **dict.fromkeys(("gpudash.__main__", "gpudash.cli", "gpudash.cliargs", "gpudash.progress", "gpudash.background",
                     "gpudash.promtest", "gpudash.grafana_bootstrap", "gpudash.report", "gpudash.prune",
                     "gpudash.httpread", "gpudash.golden_cache",
                     "gpudash.doctor", "gpudash.demo", "gpudash.mock",
                     "gpudash.docs"), "runtime"),
}
MAY_IMPORT = {
    "foundation": {"foundation"},
    "model": {"foundation", "model"},
    "content": {"foundation", "model", "content"},
    "simulation": {"foundation", "model", "content", "simulation"},  # reads the series registry (rules.names)
    "delivery": {"foundation", "model", "content", "delivery"},
    "writer": {"foundation"},  # the writer serialises and stages; it never decides content
    "runtime": {"foundation", "model", "content", "delivery", "writer", "runtime"},
}
# (importer prefix, imported prefix) edges outside MAY_IMPORT, each with its reason.
EXCEPTIONS = {
    ("gpudash.golden", "gpudash.simulation"): "the golden emitter's expectations come from the reference model",
    ("gpudash.mock", "gpudash.simulation"): "the mock serves the simulation's series",
}
RUNTIME_PACKAGES = ("requests", "jinja2", "kubernetes")  # pyproject extras: only runtime tools import them


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _within(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def layer(name: str) -> str | None:
    if name == "gpudash":
        return "foundation"  # the root package's __init__ imports nothing
    prefix = max((p for p in LAYERS if _within(name, [p])), key=len, default=None)
    return LAYERS[prefix] if prefix else None


@functools.cache
def direct_imports(packages: bool = True) -> dict[str, set[str]]:
    """{gpudash module: every module its ``import`` statements name}; without ``packages``, ``from a import b`` of
    a submodule ``b`` names ``a.b`` only (loading it runs ``a`` first, but reads nothing of ``a``'s own)."""
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    out: dict[str, set[str]] = {}
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
                submodules = {f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules}
                if packages or len(submodules) < len(node.names):
                    edges.add(base)
                edges.update(submodules)
        out[name] = edges - {name}
    return out


def import_graph() -> dict[str, set[str]]:
    """{gpudash module: every module loading it loads first-hand (importing a.b.c also runs a and a.b)}."""
    return {name: {".".join(e.split(".")[:i]) for e in edges for i in range(1, e.count(".") + 2)} - {name}
            for name, edges in direct_imports().items()}


def reachable(graph: dict[str, set[str]], start: str) -> dict[str, str]:
    """{module: the module that imports it} for everything ``start`` loads."""
    seen, todo = {start: ""}, [start]
    while todo:
        current = todo.pop()
        for dep in graph.get(current, ()):
            if dep not in seen:
                seen[dep] = current
                todo.append(dep)
    return seen


def _chain(seen: dict[str, str], name: str) -> str:
    out = [name]
    while seen[out[-1]]:
        out.append(seen[out[-1]])
    return " <- ".join(out)


def _excepted(importer: str, imported: str) -> bool:
    return any(_within(importer, [a]) and _within(imported, [b]) for a, b in EXCEPTIONS)


def test_no_module_loads_itself_through_others():
    """No import circles (issue 33), lazy imports included: a circle hides which module is the lower one."""
    graph = direct_imports(packages=False)
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return path[path.index(name):] + [name]
        if name in done or name not in graph:
            return None
        for dep in sorted(graph[name]):
            found = visit(dep, [*path, name])
            if found:
                return found
        done.add(name)
        return None

    circles = [c for c in (visit(name, []) for name in sorted(graph)) if c]
    assert not circles, " -> ".join(circles[0])


def test_every_module_has_a_layer():
    graph = import_graph()
    assert len(graph) > 90
    assert not [m for m in graph if layer(m) is None], "place these modules in LAYERS"


def test_each_layer_imports_only_what_it_may():
    """Direct imports; a package named only on the way to one of its modules (``from gpudash.report import
    queries``) counts as that module."""
    bad = []
    for module, edges in direct_imports().items():
        for dep in edges:
            if not dep.startswith("gpudash") or any(e.startswith(dep + ".") for e in edges):
                continue
            if layer(dep) not in MAY_IMPORT[layer(module)] and not _excepted(module, dep):
                bad.append(f"{module} ({layer(module)}) imports {dep} ({layer(dep)})")
    assert not bad, "layering broken:\n" + "\n".join(sorted(bad))


def test_the_simulation_is_imported_by_the_golden_emitter_and_the_mock_only():
    users = {m for m, edges in direct_imports().items() if layer(m) != "simulation"
             and any(_within(e, ["gpudash.simulation"]) for e in edges)}
    assert users and all(_within(m, ["gpudash.golden", "gpudash.mock"]) for m in users), sorted(users)
    assert not any(_within(e, ["gpudash.golden"]) for m, edges in direct_imports().items()
                   if _within(m, ["gpudash.mock"]) for e in edges), "the mock must not depend on the golden emitter"


def test_only_runtime_tools_load_an_extras_package():
    graph = import_graph()
    bad = []
    for module in (m for m in graph if layer(m) != "runtime"):
        seen = reachable(graph, module)
        bad += [_chain(seen, m) for m in seen if _within(m, RUNTIME_PACKAGES)]
    assert not bad, "generators load an extra's package:\n" + "\n".join(sorted(set(bad)))


def test_the_import_graph_sees_lazy_and_relative_imports():
    """The checks above can fail: a function-local import is an edge, and a misplaced import is reported."""
    graph = import_graph()
    assert "gpudash.grafana.panels" in graph["gpudash.grafana.isolation"]  # imported inside violations()
    assert "requests" in graph["gpudash.report.client"]  # imported inside Prometheus.__post_init__
    assert "gpudash.report" in reachable(graph, "gpudash.doctor.cli")
    assert layer("gpudash.grafana_bootstrap") == "runtime" and layer("gpudash.grafana.panels") == "content"
    assert layer("gpudash.prune.plan") == "content" and layer("gpudash.prune.cli") == "runtime"
    assert "writer" not in MAY_IMPORT["content"] and not _excepted("gpudash.rules.hub", "gpudash.simulation")


URL = ["--prometheus-url", "http://127.0.0.1:9"]
PERIOD = ["--start", "2026-01-01T00:00:00Z", "--end", "2026-01-02T00:00:00Z"]


@pytest.mark.parametrize("argv, package, extra", [
    (["report", "billing", "--example", *URL, *PERIOD], "requests", "report"),
    (["report", "billing", "--example", *URL, *PERIOD], "jinja2", "report"),
    (["doctor", "--example", *URL], "requests", "report"),
    (["grafana-bootstrap", "--example", "--grafana-url", "http://127.0.0.1:9"], "requests", "bootstrap"),
    (["prune", *URL], "kubernetes", "prune"),
])
def test_a_runtime_command_without_its_extra_says_what_to_install(argv, package, extra, monkeypatch, capsys):
    """A missing optional dependency (pyproject's extras) is one line and exit 2, not a traceback."""
    monkeypatch.setenv("GRAFANA_TOKEN", "t")
    monkeypatch.setitem(sys.modules, package, None)  # `import package` now raises ModuleNotFoundError
    for name in [m for m in sys.modules if m in ("gpudash.report.render", "gpudash.prune.api")]:
        monkeypatch.delitem(sys.modules, name)  # imported by an earlier test: make the command import it again
        monkeypatch.delattr(sys.modules[name.rpartition(".")[0]], name.rpartition(".")[2], raising=False)
    assert cli.main(argv) == 2
    assert capsys.readouterr().err == (f"gpudash: {argv[0]} needs the {package} package: "
                                       f"pip install 'gpudash[{extra}]'\n")
