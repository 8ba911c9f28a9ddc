"""yamlfmt's fast paths for plain string scalars and ints write exactly what PyYAML's emitter writes."""
from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from gpudash.base import yamlfmt
from tests.thorough import examples

CASES = ["team-a", "tenant-00001", "yes", "No", "ON", "null", "Null", "true", "e1", "E5", "a.b/c_d-e", "nan",
         "NaN", "inf", "x" * 200, "y", "n", "Y", "off", "2026-01-01", "a-", "z.", "v1.2.3", "t00001",
         "H4sIAAAAAAAC/+1d=", "a+b", "c==",  # base64: grafana-operator's gzipJson
         # every indicator where it counts and where it does not (yaml/emitter.py analyze_scalar)
         "- a", "-a", "-", "? x", "?x", "?", ":x", ": x", ":", "a: b", "a:b", "a:", "a #b", "a#b", "#a", "--- x",
         "---", "...x", "..", " a", "a ", "a  b", "{x", "x{}", "a,b", ",a", "[a]", "a[0]", "%x", "x%", "@x", "x@y",
         "`x", "'x", "x'y", '"x', 'x"y', "!x", "x!", "&x", "*x", "|x", ">x", "x|y", "1x11", "${GPUDASH_ORG_ID_T1}",
         'namespace=~"tenant-1"', "GPU usage t1", "Bearer ${GF_TENANT_TOKEN_T1}", "/var/lib/grafana/a.json",
         "~", "~x", "<<", "=", "0x1F", "0o17", "1_000", "1:30", "+1", "-1.5", ".5", ".inf", "12:30:00", "y n",
         "Yes please", "a\\b", "1e3", "x" * 300 + ": y"]


def test_ints_are_written_as_the_emitter_writes_them():
    for value in (0, 7, -3, 10**30, 1000):
        assert yamlfmt._scalar_text(int, value) == yamlfmt._emit(value)



def _check(value: str) -> None:
    assert yamlfmt._scalar_text(str, value) == yamlfmt._emit(value), value


def test_fast_path_matches_the_emitter_on_known_cases():
    for value in CASES:
        _check(value)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=string.ascii_letters + string.digits + "_./+=-:", min_size=1, max_size=20))
def test_fast_path_matches_the_emitter(value):
    _check(value)


@settings(max_examples=examples(1500), deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7e), max_size=12))
def test_fast_path_matches_the_emitter_on_any_printable_ascii(value):
    """Printable ASCII is what the fast path takes; other text is quoted apart (_quoted, read back by test_yamlfmt)."""
    _check(value)
