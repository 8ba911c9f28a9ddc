"""yamlfmt's fast paths for string scalars, ints and floats write exactly what PyYAML's emitter writes."""
from __future__ import annotations

import string

import yaml
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


FLOATS = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1e17, -1e17, 1e-7, 1.5e300, 5e-324,
          2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 1 / 3, 123456789012345.0, 1e16, 1e15,
          0.23600006103515625]


def _check_float(value: float) -> None:
    assert yamlfmt._float_text(value) == yamlfmt._emit(value) == yaml.safe_dump(value).removesuffix("\n...\n"), value


def test_floats_are_written_as_the_emitter_writes_them():
    for value in FLOATS:
        _check_float(value)


@settings(max_examples=examples(500), deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True))
def test_any_float_is_written_as_the_emitter_writes_it(value):
    _check_float(value)
