"""yamlfmt's fast path for plain string scalars writes exactly what PyYAML's emitter writes."""
from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from gpudash.base import yamlfmt

CASES = ["team-a", "tenant-00001", "yes", "No", "ON", "null", "Null", "true", "e1", "E5", "a.b/c_d-e", "nan",
         "NaN", "inf", "x" * 200, "y", "n", "Y", "off", "2026-01-01", "a-", "z.", "v1.2.3", "t00001",
         "H4sIAAAAAAAC/+1d=", "a+b", "c=="]  # base64: grafana-operator's gzipJson


def _check(value: str) -> None:
    assert yamlfmt._scalar_text(str, value) == yamlfmt._emit(value), value


def test_fast_path_matches_the_emitter_on_known_cases():
    for value in CASES:
        _check(value)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=string.ascii_letters + string.digits + "_./+=-:", min_size=1, max_size=20))
def test_fast_path_matches_the_emitter(value):
    _check(value)
