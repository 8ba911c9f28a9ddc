"""A model of how ACM's rbac-query-proxy rewrites a tenant's query, for the isolation proof and the e2e tests.

What the proxy does, read from stolostron/multicluster-observability-operator:

* ``proxy/pkg/metricquery/modifier.go``: a user's access is a map managed cluster -> namespaces it may read
  (``metrics/<ns>`` verbs on ``managedclusters`` of MCO's fine-grained RBAC; ``*`` for all namespaces, also
  granted by access to the cluster's project). A user with access to every namespace of every cluster is not
  rewritten at all; every other query gets a cluster matcher, then a namespace matcher.
* ``proxy/pkg/rewrite/rewrite_cluster.go``: the cluster matcher is appended to every vector selector (also inside
  range selectors and subqueries): ``cluster="c"`` for one cluster, ``cluster=~"c1|c2"`` (names joined by ``|``,
  not escaped) for several, and ``cluster=""`` when the user may read no cluster at all.
* ``proxy/pkg/metricquery/filter.go``: the namespace matcher holds the namespaces the user may read on *every*
  cluster the query targets (the clusters named by the query's own cluster matchers, else all accessible ones).
  When that is ``*`` everywhere, or the user has no access (the empty map), no namespace matcher is added; an empty
  intersection becomes ``namespace=""``. ``proxy/pkg/rewrite/rewrite.go`` appends it like the cluster matcher.

The ``acm_managed_cluster_labels`` special case (matched on ``name``) is left out: gpudash never reads it.

The rewrite walks the promql-parser AST and prints it back with the matchers appended to each selector.
promql-parser's own printer drops sub-second durations (``offset 1ms`` becomes ``offset 0s``), which gpudash's
hour reads rely on, so :func:`unparse` prints the tree itself: every binary, aggregation, subquery and unary
operand in parentheses, so the source's own parentheses are redundant and printing is idempotent.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import promql_parser as pp

from gpudash.promql import build as q
from gpudash.promql.lint import vector_selectors

Matcher = tuple[str, str, str]
ALL = "*"
_OPS = {"MatchOp.Equal": "=", "MatchOp.NotEqual": "!=", "MatchOp.Re": "=~", "MatchOp.NotRe": "!~"}


@dataclass(frozen=True)
class Access:
    """What a user may read: managed cluster -> namespaces (``*`` = all). Empty: a user without access."""

    clusters: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def tenant(cls, namespace: str, clusters) -> Access:
        """A tenant bound to ``metrics/<namespace>`` on ``clusters``."""
        return cls({c: (namespace,) for c in clusters})

    def full(self, all_clusters) -> bool:
        """Every namespace of every managed cluster: the proxy passes the query unchanged."""
        return bool(all_clusters) and all(ALL in self.clusters.get(c, ()) for c in all_clusters)


def _op(m) -> str:
    return _OPS[str(m.op)]


def _duration(td) -> str:
    seconds = td.total_seconds()
    return f"-{q.duration(-seconds)}" if seconds < 0 else q.duration(seconds) if seconds else "0s"


def _modifiers(sel) -> str:
    out = ""
    if sel.offset is not None and sel.offset.total_seconds():
        out += f" offset {_duration(sel.offset)}"
    if sel.at is not None:
        kind = str(sel.at.type).rsplit(".", 1)[-1]
        out += {"Start": " @ start()", "End": " @ end()"}.get(kind) or f" @ {sel.at.at.timestamp():.3f}"
    return out


def _selector(sel, extra: tuple[Matcher, ...]) -> str:
    if sel.matchers.or_matchers:
        raise ValueError(f"{sel}: 'or' matchers are not modelled")
    items = [(m.name, _op(m), m.value) for m in sel.matchers.matchers] + list(extra)
    body = ",".join(f"{q.label_name(n)}{op}{q.quote(v)}" for n, op, v in items)
    return f"{sel.name or ''}{{{body}}}"


def _number(v: float) -> str:
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Inf" if v > 0 else "-Inf"
    return repr(v)


def _labels(labels) -> str:
    return "(" + ", ".join(labels) + ")"


def unparse(node, extra: tuple[Matcher, ...] = ()) -> str:
    """PromQL text of a promql-parser AST, with ``extra`` matchers appended to every vector selector."""
    u = lambda n: unparse(n, extra)  # noqa: E731
    if isinstance(node, pp.VectorSelector):
        return _selector(node, extra) + _modifiers(node)
    if isinstance(node, pp.MatrixSelector):
        sel = node.vector_selector
        return f"{_selector(sel, extra)}[{_duration(node.range)}]{_modifiers(sel)}"
    if isinstance(node, pp.SubqueryExpr):
        step = _duration(node.step) if node.step else ""
        return f"({u(node.expr)})[{_duration(node.range)}:{step}]{_modifiers(node)}"
    if isinstance(node, pp.NumberLiteral):
        return _number(node.val)
    if isinstance(node, pp.StringLiteral):
        return q.quote(node.val)
    if isinstance(node, pp.ParenExpr):  # every operand that needs them gets parentheses anyway
        return u(node.expr)
    if isinstance(node, pp.UnaryExpr):
        return f"-({u(node.expr)})"
    if isinstance(node, pp.Call):
        return f"{node.func.name}({', '.join(u(a) for a in node.args)})"
    if isinstance(node, pp.AggregateExpr):
        grouping = ""
        if node.modifier is not None:
            kind = "without" if str(node.modifier.type).endswith("Without") else "by"
            grouping = f" {kind} {_labels(node.modifier.labels)}"
        args = ([u(node.param)] if node.param is not None else []) + [u(node.expr)]
        return f"{node.op}{grouping} ({', '.join(args)})"
    if isinstance(node, pp.BinaryExpr):
        return f"({u(node.lhs)}) {node.op}{_binary_modifier(node.modifier)} ({u(node.rhs)})"
    raise ValueError(f"cannot print a {type(node).__name__}")


def _binary_modifier(m) -> str:
    if m is None:
        return ""
    out = " bool" if m.return_bool else ""
    if m.matching is not None:
        kind = "ignoring" if str(m.matching.type).endswith("Exclude") else "on"
        out += f" {kind} {_labels(m.matching.labels)}"
    card = str(m.card).rsplit(".", 1)[-1]
    if card in ("ManyToOne", "OneToMany"):
        out += f" {'group_left' if card == 'ManyToOne' else 'group_right'} {_labels(m.group_labels)}"
    return out


def _alternation(values) -> tuple[str, str]:
    """The proxy's matcher for ``values``: ``=`` for one, ``=~`` joined by ``|`` (unescaped) for several."""
    values = list(values) or [""]
    return ("=", values[0]) if len(values) == 1 else ("=~", "|".join(values))


def _targeted(ast, access: Access) -> list[str]:
    """Accessible clusters the query's own cluster matchers name (filter.go getClustersInQuery)."""
    out = set()
    for sel in vector_selectors(ast):
        for m in sel.matchers.matchers:
            if m.name != "cluster":
                continue
            op = _op(m)
            for c in access.clusters:
                hit = {"=": c == m.value, "!=": c != m.value,
                       "=~": re.fullmatch(m.value, c) is not None, "!~": re.fullmatch(m.value, c) is None}[op]
                if hit:
                    out.add(c)
    return sorted(out)


def _namespaces(ast, access: Access) -> list[str] | None:
    """Namespaces readable on every targeted cluster; None = all (no namespace matcher)."""
    clusters = _targeted(ast, access) or sorted(access.clusters)
    lists = [access.clusters.get(c, ()) for c in clusters]
    limited = [ns for ns in lists if ns and ALL not in ns]
    if not limited:
        return None
    common = set.intersection(*(set(ns) for ns in limited))
    return sorted(common)


def rewrite(expr: str, access: Access, all_clusters=()) -> str:
    """``expr`` as the proxy forwards it for a user with ``access`` (``all_clusters``: every managed cluster)."""
    if access.full(all_clusters):
        return expr
    ast = pp.parse(expr)
    extra: list[Matcher] = [("cluster", *_alternation(sorted(access.clusters)))]
    namespaces = _namespaces(ast, access)
    if namespaces is not None:
        extra.append(("namespace", *_alternation(namespaces)))
    return unparse(ast, tuple(extra))
