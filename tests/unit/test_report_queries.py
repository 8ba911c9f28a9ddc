"""gpudash.queries.report_queries.tenant_queries, made from pieces around the quoted namespace, is exactly what
the report's builders send for that namespace, whatever the namespace, look-back and window."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gpudash.queries import report_queries as queries
from tests.thorough import examples

NAMESPACES = st.sampled_from(["team-a", "", '"', "\\", "a\nb", "$1", "x\0y"]) | st.text(
    st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(NAMESPACES, st.sampled_from([450, 90, 3600]), st.sampled_from([1800, 600, 86400])),
                min_size=1, max_size=6))
def test_tenant_queries_are_the_queries_built_for_the_namespace(asked):
    for namespace, lookback, window in asked:
        assert queries.tenant_queries(namespace, lookback, window) == queries._sent(namespace, lookback, window)


def test_every_tenant_query_holds_the_namespace():
    for what, expr in queries.tenant_queries("team-a", 450, 1800):
        assert 'namespace="team-a"' in expr, what
