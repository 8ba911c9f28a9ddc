"""The layering contract, read from the source (every ``import``, also inside functions, so a lazy import cannot
hide an edge). The layers are the package's folders (LAYERS), each importing only what MAY_IMPORT gives it:

base -> promql -> model -> queries -> simulation, below two wings: the render wing (``render/``: content
generators -> ``render/targets/`` delivery; ``render/writer.py`` serialises and stages) and the operations wing
(``ops/``: report, doctor, prune, demo, mock, grafana-bootstrap, the promtool runner), which may use what the render
wing makes (the doctor evaluates its rules, the demo writes a render) but never the other way. The CLI modules at
the package root sit on top. ``gpudash --help`` loads neither grafanalib nor an extra's package.
"""
from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

import pytest

import gpudash
from gpudash import cli
from gpudash.model import vendors

PACKAGE = Path(gpudash.__file__).resolve().parent
# folder (or the one module of a layer) -> (layer, what it holds); the longest prefix wins, and the package root's
# own modules are the "cli" layer. docs/architecture.md's layer table is made from these (test_the_docs_draw_...).
FOLDERS = {
    "gpudash.base": ("base", "errors, output paths, object helpers, the one serialiser, deferred files, progress"),
    "gpudash.promql": ("promql", "PromQL builders (every label value escaped here) and the hub read conventions"),
    "gpudash.model": ("model", "the schema, loader and typed model; the series gpudash records and its alert names; "
                               "the GPU vendors, one module each (model/vendors/); the exporters' and "
                               "kube-state-metrics' vocabularies (model/exporters/)"),
    "gpudash.examples": ("model", "the example model (data)"),
    "gpudash.queries": ("queries", "the PromQL gpudash reads back with: rendered into dashboards and the pruner's "
                                   "objects, run by the operations wing"),
    "gpudash.simulation": ("simulation", "the reference model: scenarios, series synthesiser, expected figures "
                                         "(the golden tests' and the mock's oracle)"),
    "gpudash.render": ("content", "render wing: model -> content (rules, alerts, dashboards, ACM objects, quotas, "
                                  "the pruner's objects, golden tests)"),
    "gpudash.render.targets": ("delivery", "render wing: content -> the files of each delivery target, the deploy/ "
                                           "destinations"),
    "gpudash.render.golden.orchestrate": ("golden run", "render wing: a render's golden tests: the golden cache, "
                                                        "emitted across every core by forked workers, handed to the "
                                                        "writer as deferred files"),
    "gpudash.render.writer": ("writer", "render wing: the one writer (serialise, stage, manifest); never decides "
                                        "content"),
    "gpudash.ops": ("ops", "operations wing: report, doctor, prune, demo, mock, grafana-bootstrap, the promtool "
                           "runner, HTTP answer reading, the Prometheus API client"),
}
LAYERS = {prefix: layer_ for prefix, (layer_, _) in FOLDERS.items()}
_BELOW_WINGS = {"base", "promql", "model", "queries", "simulation"}
MAY_IMPORT = {
    "base": {"base"},
    "promql": {"base", "promql"},
    "model": {"base", "promql", "model"},
    "queries": {"base", "promql", "model", "queries"},
    "simulation": {"base", "promql", "model", "simulation"},
    "content": _BELOW_WINGS | {"content"},
    "delivery": {"base", "promql", "model", "content", "delivery"},
    "writer": {"base"},
    "golden run": _BELOW_WINGS | {"content", "writer", "golden run"},
    "ops": _BELOW_WINGS | {"content", "delivery", "writer", "golden run", "ops"},
    "cli": _BELOW_WINGS | {"content", "delivery", "writer", "golden run", "ops", "cli"},
}
# pyproject extras: only the operations wing and the CLI import them
RUNTIME_PACKAGES = ("requests", "jinja2", "kubernetes")


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _within(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def layer(name: str) -> str | None:
    if not _within(name, ["gpudash"]):
        return None
    if name == "gpudash":
        return "base"  # the root package's __init__ imports nothing
    prefix = max((p for p in LAYERS if _within(name, [p])), key=len, default=None)
    return LAYERS[prefix] if prefix else "cli" if name.count(".") == 1 else None


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
    """Direct imports; a package named only on the way to one of its modules (``from gpudash.ops.report import
    queries``) counts as that module."""
    bad = []
    for module, edges in direct_imports().items():
        for dep in edges:
            if not dep.startswith("gpudash") or any(e.startswith(dep + ".") for e in edges):
                continue
            if layer(dep) not in MAY_IMPORT[layer(module)]:
                bad.append(f"{module} ({layer(module)}) imports {dep} ({layer(dep)})")
    assert not bad, "layering broken:\n" + "\n".join(sorted(bad))


# Content is built once (render/content.py's build), and a target only packages it (issue 48). The content modules a
# delivery module may import, each for the formats and vocabularies the content is packaged in; CHAIN is the one
# delivery module that builds: model -> content.build, once -> the targets.
PACKAGING = {
    "gpudash.render.content": "the built content (Content)",
    "gpudash.render.overrides": "the mixin's _config selectors (their probe is built by content.build)",
    "gpudash.render.rules.format": "Group, rule_file",
    "gpudash.render.rules.spoke_tier": "the spoke tier group's name",
    "gpudash.render.grafana.provisioning": "Grafana folders, datasources, provisioning files",
    "gpudash.render.grafana.tenant_board": "Board, a board's text in another format",
    "gpudash.render.grafana.uids": "folder uids",
    "gpudash.render.grafana.panels": "a dashboard with __inputs for Grafana's import",
}
CHAIN = "gpudash.render.targets.artifacts"
CONTENT = "gpudash.render.content"


def _names(tree: ast.AST) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """({local name: the gpudash module it is}, {local name: (module, name) imported from it}) of ``tree`` (absolute
    imports: the render wing has no relative one)."""
    modules, names = {}, {}
    known = direct_imports(packages=False).keys()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert not node.level, "a relative import: read it here"
            for a in node.names:
                if f"{node.module}.{a.name}" in known:
                    modules[a.asname or a.name] = f"{node.module}.{a.name}"
                else:
                    names[a.asname or a.name] = (node.module, a.name)
        elif isinstance(node, ast.Import):
            modules.update({a.asname: a.name for a in node.names if a.asname})
    return modules, names


def _source(module: str) -> ast.Module:
    path = PACKAGE.parent / module.replace(".", "/")
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    return ast.parse(path.read_text(), str(path))


def _home(module: str, name: str) -> tuple[str, str]:
    """(module, name) where ``name`` is defined: a package's re-export (its ``__init__.py`` only exports) resolved to
    the module that defines it."""
    init = PACKAGE.parent / module.replace(".", "/") / "__init__.py"
    for node in ast.parse(init.read_text()).body if init.exists() else []:
        if isinstance(node, ast.ImportFrom) and node.module and any((a.asname or a.name) == name for a in node.names):
            return _home(node.module, next(a.name for a in node.names if (a.asname or a.name) == name))
    return module, name


def _referenced(tree: ast.AST, modules: dict[str, str], names: dict[str, tuple[str, str]]) -> set[tuple[str, str]]:
    """Every (module, function) ``tree`` names through an imported module or name, re-exports resolved."""
    out = {names[n.id] for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in names}
    out |= {(modules[n.value.id], n.attr) for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in modules}
    return {_home(m, f) for m, f in out}


def _calls(module: str) -> dict[str, set[str]]:
    """{top-level function of ``module``: the functions of the same module it names}."""
    functions = {f.name: f for f in _source(module).body if isinstance(f, ast.FunctionDef)}
    return {name: {n.id for n in ast.walk(f) if isinstance(n, ast.Name) and n.id in functions and n.id != name}
            for name, f in functions.items()}


@functools.cache
def content_builders() -> set[tuple[str, str]]:
    """(module, function) of every content builder: what content.build names, and what calls one of those in its
    own module (``grafana.rendered`` builds as ``grafana.boards`` does, both in grafana/built_boards.py)."""
    tree = next(f for f in _source(CONTENT).body if isinstance(f, ast.FunctionDef) and f.name == "build")
    found = {(m, f) for m, f in _referenced(tree, *_names(_source(CONTENT))) if layer(m) == "content" and m != CONTENT}
    for module in {m for m, _ in found}:
        calls, up = _calls(module), {f for m, f in found if m == module}
        while more := {f for f, callees in calls.items() if callees & up} - up:
            up |= more
        found |= {(module, f) for f in up}
    return found


def test_a_target_only_packages_the_content_built_once():
    """No delivery module imports a content module beyond PACKAGING, nor names a content builder; the chain builds
    the content once."""
    builders, bad = content_builders(), []
    assert ("gpudash.render.rules.spoke", "group") in builders and \
        ("gpudash.render.grafana.built_boards", "rendered") in builders
    for module, edges in sorted(direct_imports(packages=False).items()):
        if layer(module) != "delivery":
            continue
        bad += [f"{module} imports {e}" for e in sorted(edges)
                if layer(e) == "content" and e not in PACKAGING and not (module == CHAIN and e == CONTENT)]
        tree = _source(module)
        named = _referenced(tree, *_names(tree))
        bad += [f"{module} calls the content builder {m}.{f}" for m, f in sorted(named & builders)]
    assert not bad, "a target builds content (build it once in render/content.py):\n" + "\n".join(bad)
    chain = _source(CHAIN)
    assert sum(1 for n in ast.walk(chain) if isinstance(n, ast.Attribute) and n.attr == "build"
               and isinstance(n.value, ast.Name) and n.value.id == "content") == 1


def test_the_simulation_is_imported_by_the_golden_emitter_and_the_mock_only():
    users = {m for m, edges in direct_imports().items() if layer(m) != "simulation"
             and any(_within(e, ["gpudash.simulation"]) for e in edges)}
    assert users and all(_within(m, ["gpudash.render.golden", "gpudash.ops.mock"]) for m in users), sorted(users)
    assert not any(_within(e, ["gpudash.render.golden"]) for m, edges in direct_imports().items()
                   if _within(m, ["gpudash.ops.mock"]) for e in edges), "the mock must not depend on the golden emitter"


# The reports are one command of the operations wing, not its base: what doctor, prune and the shared modules read
# with (the Prometheus client, the argument helpers) lives beside them in ops/ (issue #48 item 5). The demo shows
# the reports it demonstrates, so it may use their builders and formats (never the other way round).
NOT_FROM_REPORT = ["gpudash.ops.doctor", "gpudash.ops.prune", "gpudash.ops.demo", "gpudash.ops.prometheus_client",
                   "gpudash.ops.cliargs", "gpudash.ops.httpread"]
DEMO_SHOWS = {"gpudash.ops.report.billing", "gpudash.ops.report.nodes", "gpudash.ops.report.invoice",
              "gpudash.ops.report.presentation"}


def report_imports_outside_report() -> list[str]:
    bad = []
    for module, edges in direct_imports(packages=False).items():
        if not _within(module, NOT_FROM_REPORT):
            continue
        allowed = DEMO_SHOWS if _within(module, ["gpudash.ops.demo"]) else set()
        bad += [f"{module} imports {e}" for e in sorted(edges)
                if _within(e, ["gpudash.ops.report"]) and e not in allowed]
    return bad


def test_doctor_prune_and_demo_do_not_reach_into_the_reports():
    assert not report_imports_outside_report(), "\n".join(report_imports_outside_report())


def test_only_runtime_tools_load_an_extras_package():
    graph = import_graph()
    bad = []
    for module in (m for m in graph if layer(m) not in ("ops", "cli")):
        seen = reachable(graph, module)
        bad += [_chain(seen, m) for m in seen if _within(m, RUNTIME_PACKAGES)]
    assert not bad, "generators load an extra's package:\n" + "\n".join(sorted(set(bad)))


def test_the_import_graph_sees_lazy_and_relative_imports():
    """The checks above can fail: a function-local import is an edge, and a misplaced import is reported."""
    graph = import_graph()
    assert "gpudash.render.grafana.panels" in graph["gpudash.render.grafana.isolation"]  # imported inside violations()
    assert "requests" in graph["gpudash.ops.prometheus_client"]  # imported inside Prometheus.__post_init__
    assert "gpudash.ops.prometheus_client" in reachable(graph, "gpudash.ops.doctor.cli")
    assert layer("gpudash.ops.grafana_bootstrap") == "ops" and layer("gpudash.render.grafana.panels") == "content"
    assert layer("gpudash.queries.prune_plan") == "queries" and layer("gpudash.cli") == "cli"
    assert layer("gpudash.render.targets.acm") == "delivery" and layer("gpudash.render.writer") == "writer"
    assert "writer" not in MAY_IMPORT["content"] and "ops" not in MAY_IMPORT["content"]


def test_the_layers_are_the_folders():
    """Every layer is a folder or a module of its own (the root's modules are the CLI): no module is placed in a
    layer other than its folder's, so the tree shows the layers."""
    for prefix in LAYERS:
        path = PACKAGE.parent / prefix.replace(".", "/")
        assert path.is_dir() or path.with_suffix(".py").is_file(), prefix
    roots = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert all(layer(f"gpudash.{m}") == "cli" for m in roots), roots


# A vendor is one module plus its data (issue #48): a vendor's name or its exporter's key (nvidia, amd, dcgm) is code
# only in the vendor modules; everything else reaches vendor facts through the registry (gpudash.model.vendors).
# What counts: string literals and identifiers, not comments and docstrings (they cite upstream repositories such
# as NVIDIA/dcgm-exporter). The vendors' data files (model/mig.py, model/partitions.py, examples/gpudash.yaml) name
# none in code or are not Python.
VENDOR_HOME = "gpudash.model.vendors"
# module (or package) -> why it may still name a vendor; an entry that names none fails, so the list only shrinks
VENDOR_NAMES_ALLOWED = {
    # ``job: dcgm`` in the scenario YAML files is the format's keyword for every GPU exporter's scrape faults
    "gpudash.simulation.scenario": "the scenario format's keyword for the GPU exporters' scrapes (job: dcgm)",
}


def vendor_pattern() -> re.Pattern[str]:
    """The registered vendors' names and exporter keys, case-insensitive."""
    words = sorted({w for v in vendors.VENDORS.values() for w in (v.name, v.source)})
    return re.compile("|".join(map(re.escape, words)), re.IGNORECASE)


def code_words(source: str):
    """(line, text) of every string literal (f-strings' parts included) and identifier of ``source``; docstrings
    and comments are not code."""
    tree = ast.parse(source)
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings:
            yield n.lineno, n.value
        elif isinstance(n, (ast.Name, ast.Attribute, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.arg,
                            ast.keyword, ast.alias)):
            name = {ast.Name: "id", ast.Attribute: "attr", ast.arg: "arg", ast.keyword: "arg"}.get(type(n), "name")
            yield getattr(n, "lineno", 0), f"{getattr(n, name) or ''} {getattr(n, 'asname', '') or ''}"


def vendor_names(source: str) -> list[str]:
    pattern = vendor_pattern()
    return [f"{line}: {text.strip()[:80]!r}" for line, text in code_words(source) if pattern.search(text)]


def test_only_the_vendor_modules_name_a_vendor():
    found = {m: vendor_names(p.read_text()) for m, p in ((_module(p), p) for p in PACKAGE.rglob("*.py"))
             if not _within(m, [VENDOR_HOME])}
    bad = [f"{m}:{hit}" for m, hits in sorted(found.items()) if not _within(m, VENDOR_NAMES_ALLOWED) for hit in hits]
    assert not bad, "read these from the vendor registry (gpudash.model.vendors):\n" + "\n".join(bad)
    stale = [a for a in VENDOR_NAMES_ALLOWED if not any(hits for m, hits in found.items() if _within(m, [a]))]
    assert not stale, f"no longer names a vendor: remove from VENDOR_NAMES_ALLOWED: {stale}"


def test_the_vendor_name_check_sees_literals_and_identifiers_only():
    """The check above can fail: a literal, an f-string, an attribute, a keyword or an import names a vendor; a
    comment or a docstring citing an upstream repository does not."""
    assert vendor_names('"""From NVIDIA/dcgm-exporter."""\nx = 1  # amd\n') == []
    for code in ('r = "nvidia.com/gpu"', 'r = f"{x}_amd_com"', "j = sources.dcgm.job", "f(amd_product_label=1)",
                 "from gpudash.model.vendors import nvidia", "def f(dcgm): pass"):
        assert vendor_names(code), code


ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"
BEGIN, END = "<!-- layers: made from tests/unit/test_layering.py FOLDERS -->", "<!-- layers end -->"


def layer_table() -> str:
    rows = ["| folder | layer | holds | may import |", "|---|---|---|---|"]
    for prefix, (layer_, what) in FOLDERS.items():
        path = prefix.replace(".", "/") + ("/" if (PACKAGE.parent / prefix.replace(".", "/")).is_dir() else ".py")
        below = ", ".join(sorted(MAY_IMPORT[layer_] - {layer_}))
        rows.append(f"| `{path}` | {layer_} | {what} | {below or 'nothing else'} |")
    rows.append(f"| `gpudash/*.py` | cli | the commands: argument parsing, dispatch, exit codes "
                f"| {', '.join(sorted(MAY_IMPORT['cli'] - {'cli'}))} |")
    return "\n".join(rows)


def test_the_docs_draw_the_layers_as_this_test_enforces_them():
    text = ARCHITECTURE.read_text()
    drawn = text[text.index(BEGIN) + len(BEGIN):text.index(END)].strip()
    assert drawn == layer_table(), f"replace docs/architecture.md's layer table with:\n{layer_table()}"


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
    for name in [m for m in sys.modules if m in ("gpudash.ops.report.presentation", "gpudash.ops.prune.api")]:
        monkeypatch.delitem(sys.modules, name)  # imported by an earlier test: make the command import it again
        monkeypatch.delattr(sys.modules[name.rpartition(".")[0]], name.rpartition(".")[2], raising=False)
    assert cli.main(argv) == 2
    assert capsys.readouterr().err == (f"gpudash: {argv[0]} needs the {package} package: "
                                       f"pip install 'gpudash[{extra}]'\n")
