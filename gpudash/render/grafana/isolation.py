"""Provable tenant isolation: every query of a tenant dashboard reads only that tenant's namespace.

Grafana folders and orgs do not isolate data (whoever may query a datasource can send it any query, from
Explore or the API); the datasource does (rbac-query-proxy or the
thanos-querier tenancy port), and the dashboards must not even ask for other namespaces. This module proves
the second part from the rendered JSON, at render time (a violation is a :class:`GenerationError`, exit 2)
and in the tests.

How: each target's PromQL has Grafana's built-in macros substituted the way Grafana does
(``$__interval``, ``$__rate_interval``, ``$__range``, ``${__range_s}``, ``[[__interval]]``...), is parsed
with promql-parser, and every vector selector (including those inside subqueries, ranges, function arguments
and both sides of binary operations) must satisfy all of:

1. it has a matcher ``namespace="<the tenant's namespace>"`` with the equality operator;
2. it has no other ``namespace`` matcher (no ``!=``, ``=~``, ``!~``, no second value);
3. it has no ``or`` matchers (``{namespace="a" or namespace="b"}``, Prometheus 3 syntax);
4. its metric name is a literal from the allowed tenant series (no ``{__name__=~".+"}``, no raw series);

and the expression as a whole:

5. has no ``label_replace``/``label_join`` whose destination is ``namespace`` and no
   ``count_values("namespace", ...)`` (they would relabel data as another namespace);
6. has no ``$`` (nor ``[[name]]``) left after macro substitution: a template variable could be switched by
   the viewer, and label_replace's ``$1`` is rejected too rather than told apart.

The dashboard as a whole: no template variables at all, no panel repeats, and every panel and target uses
the one expected datasource UID (no ``-- Mixed --`` or ``-- Grafana --`` datasource). Expressions without
any selector (``vector(time() - 7200)``) read no data and pass.

Through ACM's rbac-query-proxy (modelled in :mod:`gpudash.render.grafana.proxy`), every query -- of a tenant dashboard
and of ``gpudash report`` with a tenant token -- is also rewritten as the proxy does it, and then:

a. the rewritten query for the tenant (``metrics/<namespace>`` on the model's clusters) has, on every selector,
   a cluster matcher naming only those clusters and only the tenant's namespace;
b. every selector reads a series that carries both ``cluster`` and ``namespace`` on the hub (else the proxy's
   matchers silently empty the panel: the same query selects other series with the proxy than without);
c. for a user without access (``cluster=""``, no namespace matcher), every selector has ``cluster=""`` and, by
   (b), reads a series that always carries a non-empty cluster: nothing of gpudash is returned.

The labels a series carries on the hub come from its name (``level:metric:operations``, the level lists the
labels) plus ``cluster``, which the metrics-collector adds to every pushed spoke series.
"""
from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

import promql_parser as pp

from gpudash.base.errors import GenerationError
from gpudash.model import series as names
from gpudash.model.types import Model
from gpudash.promql import read
from gpudash.promql.lint import nodes, vector_selectors
from gpudash.queries import report_queries
from gpudash.render.grafana import proxy

# Series a tenant dashboard may read: the tenant-labelled recorded series and the alerts of its namespace.
TENANT_SERIES = frozenset({
    names.POD_ALLOCATED, names.HOURLY_GPU_HOURS, names.POD_ACTIVITY_MAX, names.POD_ACTIVITY_AVG,
    names.TENANT_INFO, names.TENANT_BUDGET, names.TENANT_THRESHOLD,
    names.HOUR_GPU_HOURS, names.HOUR_COST, names.UNPRICED_GPU_HOURS,
    names.NAMESPACE_COST_RATE, names.WORKLOAD_COST_RATE, names.POD_COST_RATE,
    names.TENANT_HOUR_COST, names.CLASS_ALLOCATED, names.POD_IDLE,
    names.TENANT_COST_PTD, names.TENANT_COST_PROJECTED, names.TENANT_COST_RATE_AVG,
    names.HOURLY_ENERGY, names.HOUR_ENERGY, names.HOUR_ENERGY_COST,
    "ALERTS",
})

# Spoke series pushed to the hub by the metrics-collector, which adds ``cluster`` to each.
PUSHED = frozenset({names.POD_ALLOCATED, names.HOURLY_GPU_HOURS, names.POD_ACTIVITY_MAX, names.POD_ACTIVITY_AVG,
                    names.POD_POWER_MAX, names.NODE_ACTIVE_GPUS_MAX, names.BILLED_HOUR, names.HOURLY_ENERGY})
# Hub alerts a tenant reads: every tenant-audience alert is written once per cluster, with namespace.
ALERT_LABELS = frozenset({"cluster", "namespace"})


def hub_labels(metric: str) -> frozenset[str]:
    """Labels ``metric`` carries on the hub, as its name says (see the module doc)."""
    if metric == "ALERTS":
        return ALERT_LABELS
    level = metric.split(":")[0] if metric.count(":") == 2 else ""
    found = set(level.split("_")) if level else set()
    return frozenset(found | {"cluster"} if metric in PUSHED else found)


# Nominal values for Grafana's built-in variables, longest names first so that ``$__range_ms`` is not read
# as ``$__range`` followed by ``_ms``. The values do not matter to the proof (only the shape does) but they
# are what Grafana would send for a 30-day range with a 5-minute step and a 5-minute scrape interval.
MACROS = (
    ("__rate_interval_ms", "1200000"),
    ("__rate_interval", "1200s"),
    ("__interval_ms", "300000"),
    ("__interval", "300s"),
    ("__range_ms", "2592000000"),
    ("__range_s", "2592000"),
    ("__range", "2592000s"),
)


def substitute_macros(expr: str, values: dict[str, str] | None = None) -> str:
    """``expr`` with Grafana's built-in variables replaced, in all three syntaxes Grafana accepts:
    ``$__name``, ``${__name}`` (also ``${__name:format}``) and ``[[__name]]``."""
    if "$" not in expr and "[[" not in expr:  # every syntax above has one of them: nothing to substitute
        return expr
    table = dict(MACROS)
    table.update(values or {})
    for name in sorted(table, key=len, reverse=True):
        if name not in expr:  # each syntax names it: nothing of it to substitute (most queries name no macro)
            continue
        value = table[name]
        braced, bare = _macro_patterns(name)
        expr = braced.sub(value, expr)
        expr = expr.replace(f"[[{name}]]", value)
        expr = bare.sub(value, expr)
    return expr


@functools.lru_cache(maxsize=256)
def _macro_patterns(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``${name}`` (or ``${name:format}``) and ``$name`` not followed by a name character, compiled once per name."""
    return (re.compile(r"\$\{" + re.escape(name) + r"(?::[^}]*)?\}"),
            re.compile(r"\$" + re.escape(name) + r"(?![A-Za-z0-9_])"))


@dataclass(frozen=True)
class Violation:
    where: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


def check_expr(expr: str, namespace: str, allowed: frozenset[str] = TENANT_SERIES) -> list[str]:
    """Reasons why ``expr`` (Grafana macros already substituted) could read outside ``namespace``; [] = proven."""
    if "$" in expr or re.search(r"\[\[\s*[A-Za-z_]", expr):
        return [f"a template variable is left in the query ({expr!r}); a viewer could change it"]
    try:
        ast = pp.parse(expr)
    except ValueError as err:
        return [f"does not parse ({err})"]
    reasons: list[str] = []
    for node in nodes(ast):
        if isinstance(node, pp.VectorSelector):
            reasons.extend(_check_selector(node, namespace, allowed))
        elif isinstance(node, pp.Call):
            reasons.extend(_check_call(node))
        elif isinstance(node, pp.AggregateExpr):
            reasons.extend(_check_aggregate(node))
    return reasons


def _check_selector(sel, namespace: str, allowed: frozenset[str]) -> list[str]:
    text = str(sel)
    out = []
    if sel.matchers.or_matchers:
        out.append(f"{text}: 'or' matchers can select other namespaces")
    ns = [m for m in sel.matchers.matchers if m.name == "namespace"]
    if not ns:
        out.append(f"{text}: no namespace matcher")
    for m in ns:
        if m.op != pp.MatchOp.Equal:
            out.append(f"{text}: namespace matcher {m.op} is not an exact equality")
        elif m.value != namespace:
            out.append(f"{text}: namespace={m.value!r} is not the tenant's namespace {namespace!r}")
    names_ = [m for m in sel.matchers.matchers if m.name == "__name__"]
    if any(m.op != pp.MatchOp.Equal for m in names_):
        out.append(f"{text}: metric name matched by a pattern")
    metric = sel.name or next((m.value for m in names_ if m.op == pp.MatchOp.Equal), None)
    if metric is None:
        out.append(f"{text}: no metric name")
    elif metric not in allowed:
        out.append(f"{text}: {metric} is not a tenant series")
    return out


def _string_args(call) -> list[str]:
    return [a.val for a in call.args if isinstance(a, pp.StringLiteral)]


def _check_call(call) -> list[str]:
    fn = call.func.name
    if fn in ("label_replace", "label_join"):
        args = _string_args(call)
        if args and args[0] == "namespace":
            return [f"{fn}(...) rewrites the namespace label"]
    return []


def _check_aggregate(agg) -> list[str]:
    if str(agg.op) == "count_values":
        param = agg.param
        if isinstance(param, pp.StringLiteral) and param.val == "namespace":
            return ["count_values(\"namespace\", ...) creates a namespace label from values"]
    return []


def _metric(sel) -> str | None:
    return sel.name or next((m.value for m in sel.matchers.matchers if m.name == "__name__"), None)


def check_proxy(expr: str, namespace: str, clusters: tuple[str, ...]) -> list[str]:
    """Reasons why ``expr`` (macros substituted) is not confined, or not complete, through the rbac-query-proxy
    for the tenant of ``namespace`` on ``clusters``; [] = proven (a, b, c of the module doc)."""
    try:
        ast = pp.parse(expr)
    except ValueError as err:
        return [f"does not parse ({err})"]
    reasons = []
    for sel in vector_selectors(ast):
        metric = _metric(sel)
        missing = sorted({"cluster", "namespace"} - hub_labels(metric or ""))
        if missing:
            reasons.append(f"{sel}: {metric} has no {' and no '.join(missing)} label on the hub: the proxy's "
                           "matchers hide it from the tenant" + (" and cluster=\"\" shows it to users without "
                                                                "access" if "cluster" in missing else ""))
    allowed_clusters = set(clusters)
    for sel in vector_selectors(pp.parse(proxy.rewrite(expr, proxy.Access.tenant(namespace, clusters)))):
        values = [set(m.value.split("|")) for m in sel.matchers.matchers if m.name == "cluster"]
        if not values or not any(v <= allowed_clusters for v in values):
            reasons.append(f"{sel}: the proxy's rewrite does not confine it to the tenant's clusters")
        if any(m.name == "namespace" and (m.op != pp.MatchOp.Equal or m.value != namespace)
               for m in sel.matchers.matchers) or not any(m.name == "namespace" for m in sel.matchers.matchers):
            reasons.append(f"{sel}: the proxy's rewrite does not confine it to namespace {namespace!r}")
    for sel in vector_selectors(pp.parse(proxy.rewrite(expr, proxy.Access()))):
        if not any(m.name == "cluster" and m.op == pp.MatchOp.Equal and m.value == "" for m in sel.matchers.matchers):
            reasons.append(f"{sel}: a user without access is not limited to cluster=\"\"")
    return reasons


def violations(dashboard: dict, namespace: str, datasource_uid: str,
               allowed: frozenset[str] = TENANT_SERIES, clusters: tuple[str, ...] = ()) -> list[Violation]:
    """Every reason the dashboard JSON could show data outside ``namespace``; [] = isolation proven. Each panel and
    target is checked; where it is named only for a violation (a board's 25 targets took 6 us each, a third of it
    their names)."""
    from gpudash.render.grafana.panels import iter_panels, iter_targets  # grafanalib only where dashboards are checked

    title = dashboard.get("title", dashboard.get("uid", "?"))
    out: list[Violation] = []
    variables = dashboard.get("templating", {}).get("list", [])
    if variables:
        out.append(Violation(title, "tenant dashboards must have no template variables: "
                                    + ", ".join(str(v.get("name")) for v in variables)))
    for panel in iter_panels(dashboard):
        if panel.get("repeat"):
            out.append(Violation(_where(title, panel), "panel repeats over a variable"))
        if panel.get("type") == "row":
            continue
        ds = panel.get("datasource")
        if not isinstance(ds, dict) or ds.get("uid") != datasource_uid:
            out.append(Violation(_where(title, panel),
                                 f"panel datasource {ds!r} is not the tenant datasource {datasource_uid!r}"))
    shapes = _Shapes(namespace, allowed, tuple(clusters))
    for panel, target in iter_targets(dashboard):
        ds = target.get("datasource")
        if not isinstance(ds, dict) or ds.get("uid") != datasource_uid:
            out.append(Violation(_where(title, panel, target),
                                 f"target datasource {ds!r} is not the tenant datasource {datasource_uid!r}"))
        expr = target.get("expr")
        if not isinstance(expr, str) or not expr.strip():
            out.append(Violation(_where(title, panel, target), "target has no PromQL expression"))
            continue
        reasons = shapes.reasons(substitute_macros(expr))
        if reasons:
            out += [Violation(_where(title, panel, target), r) for r in reasons]
    return out


def _where(title: str, panel: dict, target: dict | None = None) -> str:
    """A violation's place: the dashboard's title, the panel's (or its id), the target's refId."""
    if target is None:
        return f"{title} / {panel.get('title', panel.get('id'))}"
    return f"{title} / {panel.get('title')} / {target.get('refId')}"


# Shapes (see _shape) proven clean, by the allowed series, clusters and proxy they were proven for.
_PROVEN: dict[tuple[frozenset[str], tuple[str, ...], bool], set[str]] = {}
_DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_PLACEHOLDER = "\u00a7"  # never in a namespace (DNS-1123) nor in the expressions _shape accepts


def _shape(expr: str, namespace: str) -> str | None:
    """``expr`` with each ``namespace="<namespace>"`` matcher's value replaced by a placeholder; None when the
    expression is not simple enough for that to be exact (quotes other than ``"``, escapes, comments).

    Why a proof holds for the whole shape: check_expr and check_proxy use the namespace only to compare
    matcher values with it and as the value of the proxy's own ``namespace=`` matcher. For a DNS-1123 label
    (no quote, backslash or regex metacharacter but a literal ``-`` in an ``=`` matcher) the result is the same
    for every namespace put in the placeholder's places; a matcher naming any other namespace stays in the shape
    as text, so another tenant's expression with it has another shape and gets the full proof."""
    tokens = _matcher_tokens(namespace)
    return None if tokens is None else _shape_of(expr, *tokens)


@functools.lru_cache(maxsize=64)
def _matcher_tokens(namespace: str) -> tuple[str, str] | None:
    """``namespace="<namespace>"`` and the same with the placeholder; None for a name not a DNS-1123 label."""
    if not _DNS_LABEL.fullmatch(namespace):
        return None
    return f'namespace="{namespace}"', f'namespace="{_PLACEHOLDER}"'


def _shape_of(expr: str, token: str, placeholder: str) -> str | None:
    """:func:`_shape` of ``expr`` by its namespace's :func:`_matcher_tokens`: each ``token`` not ending a longer label
    name (``exported_namespace=...`` stays) is the placeholder. A split, not a regex per namespace (thousands of
    tenants would recompile one each); no two tokens overlap (a DNS-1123 label holds no ``=``). C calls where no
    token ends a longer name (2.1 -> 0.7 us a query; the regex refusing characters took 0.7 alone)."""
    if "'" in expr or "`" in expr or "\\" in expr or "#" in expr or _PLACEHOLDER in expr:
        return None  # quotes but ", escapes, comments
    pieces = expr.split(token)
    ends = [before[-1:] for before in pieces[:-1]]
    if _NAME_CHARS.isdisjoint(ends):
        return placeholder.join(pieces)
    seps = [token if end in _NAME_CHARS else placeholder for end in ends]
    return "".join(itertools.chain.from_iterable(zip(pieces, seps))) + pieces[-1]


_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_:")


class _Shapes:
    """The proof of one tenant's expressions (check_expr plus, with ``clusters``, check_proxy), run once per shape:
    the first tenant's dashboard is proven in full, every other tenant's identical-but-for-its-namespace query is
    proven by the shape (:data:`_PROVEN`). What depends on the tenant alone is computed once, not per query."""

    def __init__(self, namespace: str, allowed: frozenset[str], clusters: tuple[str, ...], proxy: bool | None = None):
        self.namespace, self.allowed, self.clusters = namespace, allowed, clusters
        self.proxy = bool(clusters) if proxy is None else proxy
        self.tokens = _matcher_tokens(namespace)
        self.proven = _PROVEN.setdefault((allowed, clusters, self.proxy), set())  # one lookup a board, not a query

    def reasons(self, expr: str) -> list[str]:
        """Why ``expr`` (macros substituted) could read outside the namespace; [] = proven."""
        shape = None if self.tokens is None else _shape_of(expr, *self.tokens)
        if shape is not None and shape in self.proven:
            return []
        reasons = check_expr(expr, self.namespace, self.allowed)
        if self.proxy:
            reasons += check_proxy(expr, self.namespace, self.clusters)
        if shape is not None and not reasons:
            self.proven.add(shape)
        return reasons


def query_violations(exprs, namespace: str, clusters: tuple[str, ...]) -> list[Violation]:
    """The same proof for queries outside dashboards (what ``gpudash report`` sends with a tenant token)."""
    shapes = _Shapes(namespace, TENANT_SERIES, tuple(clusters), proxy=True)
    return [Violation(where, r) for where, expr in exprs for r in shapes.reasons(expr)]


def _raise(namespace: str, found: list[Violation]) -> None:
    if found:
        shown = "; ".join(str(v) for v in found[:5])
        more = f" (and {len(found) - 5} more)" if len(found) > 5 else ""
        raise GenerationError(f"tenant isolation violated for namespace {namespace!r}: {shown}{more}")


def prove(dashboard: dict, namespace: str, datasource_uid: str, clusters: tuple[str, ...] = ()) -> None:
    """Raise :class:`GenerationError` unless every query of ``dashboard`` is confined to ``namespace`` (and, with
    ``clusters``, complete and confined through the rbac-query-proxy)."""
    _raise(namespace, violations(dashboard, namespace, datasource_uid, clusters=clusters))


def prove_queries(exprs, namespace: str, clusters: tuple[str, ...]) -> None:
    """Raise :class:`GenerationError` unless every ``(where, expr)`` passes :func:`query_violations`."""
    _raise(namespace, query_violations(exprs, namespace, clusters))


def prove_reports(model: Model) -> None:
    """Every query ``gpudash report --tenant`` sends is confined and complete through the proxy."""
    lookback = read.fresh_seconds(model.billing.mco_interval)
    window = model.alerts.idle.window  # two pushes or more (model/sections.py)
    for t in model.tenants:
        prove_queries(report_queries.tenant_queries(t.namespace, lookback, window), t.namespace, model.clusters)
