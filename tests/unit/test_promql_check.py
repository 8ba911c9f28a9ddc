"""``gpudash.promql.lint.check``, the rules' and alerts' parse check: it refuses exactly what promql-parser refuses,
memoised by text or checking a long ``or`` chain part by part, whatever was checked before."""
from __future__ import annotations

import promql_parser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpudash.base.errors import GenerationError
from gpudash.promql import build as q
from gpudash.promql.lint import _LONG_CHAIN, check
from tests.thorough import examples

# chain parts: vector calls, scalar calls (`or` refuses them), other valid expressions, fragments that parse only
# joined to their neighbours (a string or a parenthesis split at " or "), and broken ones
PARTS = [q.const_series(1.5, row="ns team 0.5"), "vector(1)", "sum_over_time(x[5m])", "label_join(y, \"a\", \",\")",
         "time()", "scalar(x)", "x", "(vector(2))", "sum(x)", 'label_replace(vector(1), "a", "x', 'y", "", "")',
         "max by (a) (x", "y)", "vector(", "1", 'label_replace(vector(1), "a", "$1", "b", "(")', "rate(x)",
         "vector(1) # a comment", "vector(\n1)", "sum(\nx)"]


def _outcome(expr: str) -> str:
    try:
        check(expr, "rule")
    except GenerationError as err:
        return str(err)
    return "ok"


def _parsed(expr: str) -> str:
    try:
        promql_parser.parse(expr)
    except ValueError as err:
        return f"rule: generated PromQL does not parse ({err}): {expr}"
    return "ok"


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PARTS), st.integers(0, 3)), min_size=1, max_size=8),
       st.integers(_LONG_CHAIN - 2, _LONG_CHAIN + 30))
def test_check_refuses_exactly_what_the_parser_refuses(odd, length):
    """Chains of vector calls (long, so checked part by part) with a few other parts put in, checked twice."""
    parts = [q.const_series(i, row=f"ns-{i} t-{i} 0.5") for i in range(length)]
    for part, at in odd:
        parts.insert(at * len(parts) // 3, part)
    for expr in (" or ".join(parts), " or ".join(parts[:length]), " or ".join(parts)):
        assert _outcome(expr) == _parsed(expr)


def test_a_long_chain_of_scalar_calls_or_split_strings_is_refused_or_parsed_whole():
    assert _outcome(" or ".join(["time()"] * 30)).startswith("rule: generated PromQL does not parse (set operator")
    quoted = " or ".join(['label_replace(vector(1), "a", "x or y", "", "")'] * 30)
    assert _outcome(quoted) == "ok" == _parsed(quoted)
    commented = 'vector(1) # c or ' + " or ".join(["vector(\n1)"] * 30)  # each part parses, the whole does not
    assert _outcome(commented) == _parsed(commented) != "ok"
    broken = " or ".join(["vector(1)"] * 30) + " or"
    assert _outcome(broken) == _parsed(broken) != "ok"
    assert _outcome(broken) == _outcome(broken)  # a refusal is never remembered as a pass


@pytest.mark.parametrize("where", ["a", "b"])
def test_a_refusal_names_its_rule(where):
    with pytest.raises(GenerationError, match=f"^{where}: generated PromQL does not parse"):
        check("sum(", where)
