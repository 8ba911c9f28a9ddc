"""gpudash.promql.build, through which all escaping goes: direct unit tests, and a property test that whatever it
quotes parses back with promql-parser to the same value."""
from __future__ import annotations

import re

import promql_parser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpudash.promql import build as q
from tests.thorough import examples

# Any text a model may hold (a namespace, a product name, a regex), except lone surrogates, which no UTF-8 file holds.
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


def _matchers(expr: str) -> list[tuple[str, str, str]]:
    return [(m.name, str(m.op), m.value) for m in promql_parser.parse(expr).matchers.matchers]


@settings(max_examples=examples(300), deadline=None)
@given(TEXT)
def test_a_quoted_label_value_parses_back_to_itself(value):
    assert _matchers(q.selector("x", ("a", "=", value))) == [("a", "MatchOp.Equal", value)]


@settings(max_examples=examples(300), deadline=None)
@given(TEXT)
def test_a_quoted_string_argument_parses_back_to_itself(value):
    expr = q.label_replace("x", "dst", value, "src", value)
    assert [a.val for a in promql_parser.parse(expr).args[2:]] == [value, "src", value]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=5), TEXT)
def test_a_regex_alternation_parses_back_and_matches_exactly_its_values(values, other):
    regex = q.regex_alternation(values)
    assert _matchers(q.selector("x", ("a", "=~", regex))) == [("a", "MatchOp.Re", regex)]
    # Prometheus anchors label regexes (RE2, where an escaped non-alphanumeric character is itself, as in Python)
    for v in values:
        assert re.fullmatch(regex, v, re.DOTALL)
    assert bool(re.fullmatch(regex, other, re.DOTALL)) == (other in values)


def test_quote_escapes_backslash_quote_and_line_breaks():
    assert q.quote('a\\b"c\nd\re') == '"a\\\\b\\"c\\nd\\re"'
    assert q.quote("") == '""'


def test_selector_omits_empty_braces_and_joins_matchers():
    assert q.selector("up") == "up"
    assert q.selector("up", ("job", "=", "a"), ("ns", "!~", "b|c")) == 'up{job="a",ns!~"b|c"}'


@pytest.mark.parametrize("bad", [("1a", "=", "x"), ("a-b", "=", "x"), ("a", "==", "x"), ("a", "~", "x")])
def test_matchers_refuse_bad_label_names_and_operators(bad):
    with pytest.raises(ValueError):
        q.matchers(bad)


@pytest.mark.parametrize("bad", ["", "1up", "up-time", "up{}"])
def test_metric_names_are_checked(bad):
    with pytest.raises(ValueError):
        q.selector(bad)


def test_metric_names_may_hold_colons():
    assert q.metric_name("a:b_c:d") == "a:b_c:d"


def test_agg_labels_and_call():
    assert q.agg("sum", ("cluster", "namespace"), "x") == "sum by (cluster, namespace) (x)"
    assert q.labels(()) == "()"
    assert q.call("f", "a", "b") == "f(a, b)"
    with pytest.raises(ValueError):
        q.agg("sum", ("bad label",), "x")


def test_label_replace_quotes_every_argument_and_checks_label_names():
    assert q.label_replace("x", "dst", "$1", "src", "(.*)") == 'label_replace(x, "dst", "$1", "src", "(.*)")'
    assert q.label_replace("x", "dst", "v", "", "") == 'label_replace(x, "dst", "v", "", "")'
    with pytest.raises(ValueError):
        q.label_replace("x", "bad-dst", "v", "", "")


@settings(max_examples=examples(100), deadline=None)
@given(TEXT)
def test_const_series_keeps_a_dollar_literal(value):
    """label_replace expands ``$1`` in its replacement: a constant label's ``$`` is doubled so it stays literal."""
    call = promql_parser.parse(q.const_series(1, k=value))
    assert call.args[2].val == value.replace("$", "$$")


def test_const_series_nests_one_label_replace_per_label_in_name_order():
    assert q.const_series(2, b="y", a="x") == (
        'label_replace(label_replace(vector(2), "a", "x", "", ""), "b", "y", "", "")')


@pytest.mark.parametrize("seconds, text", [(3600, "1h"), (3599, "59m59s"), (0.001, "1ms"), (90061, "1d1h1m1s"),
                                           (3600 - 0.001, "59m59s999ms"), (450, "7m30s")])
def test_duration(seconds, text):
    assert q.duration(seconds) == text
    assert promql_parser.parse(f"x[{text}]").range.total_seconds() == pytest.approx(seconds)


@pytest.mark.parametrize("bad", [0, -1, 0.0001])
def test_duration_refuses_nothing(bad):
    with pytest.raises(ValueError):
        q.duration(bad)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=6), TEXT, TEXT)
def test_a_regex_of_pairs_matches_exactly_the_joined_pairs(pairs, other_a, other_b):
    regex = q.regex_pairs(pairs, "/")
    assert _matchers(q.selector("x", ("a", "=~", regex))) == [("a", "MatchOp.Re", regex)]
    joined = {f"{a}/{b}" for a, b in pairs}
    for candidate in (*joined, f"{other_a}/{other_b}", other_a, f"{pairs[0][0]}/{other_b}"):
        assert bool(re.fullmatch(regex, candidate, re.DOTALL)) == (candidate in joined)


def test_a_regex_of_pairs_shares_one_branch_per_set_of_tails():
    pairs = [("P1", "a"), ("P1", "b"), ("P2", "a"), ("P2", "b"), ("P3", "a")]
    assert q.regex_pairs(pairs, "/") == "(?:P1|P2)/(?:a|b)|(?:P3)/(?:a)"
