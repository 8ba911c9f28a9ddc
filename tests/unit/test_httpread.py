"""Properties of the reading layer (gpudash/ops/httpread.py) and the Prometheus client on top of it, over generated
shapes, values and sizes (hypothesis): whatever a server sends, the answer is checked data or one
:class:`~gpudash.base.errors.GpudashError` line; never another exception, a non-finite figure or a secret."""
from __future__ import annotations

import json
import math
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpudash.base.errors import GpudashError, redact
from gpudash.base.terminal import printable
from gpudash.ops import httpread
from gpudash.ops.prometheus_client import MAX_FIGURE, Prometheus
from tests.standins import StandIn
from tests.thorough import examples

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
                    max_leaves=30)


def _depth(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


@settings(max_examples=examples(100), deadline=None)
@given(JSON, st.integers(min_value=1, max_value=8))
def test_depth_check_agrees_with_the_structure(value, limit):
    body = json.dumps(value).encode()
    assert httpread.too_deep(body, limit) == (_depth(value) > limit)
    if _depth(value) <= limit:
        assert httpread.loads(body, limit) == value


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0, max_value=250_000), st.sampled_from([b"[]", b"{}"]))
def test_deep_nesting_is_refused_without_recursion(depth, pair):
    body = pair[:1] * depth + (b'{"a":1}' if pair == b"{}" and depth else b"") + pair[1:] * depth
    if depth > httpread.MAX_DEPTH:
        with pytest.raises(httpread.NotJSON, match="nested deeper"):
            httpread.loads(body)


@given(st.binary(max_size=200))
def test_any_bytes_parse_or_fail_as_not_json(body):
    try:
        httpread.loads(body)
    except httpread.NotJSON as err:
        assert "\n" not in str(err)


@pytest.mark.parametrize("literal", [b"NaN", b"[Infinity]", b'{"id": -Infinity}'])
def test_non_json_constants_are_refused(literal):
    with pytest.raises(httpread.NotJSON):
        httpread.loads(literal)


PASSWORDS = st.text(string.ascii_letters + string.digits + "!$&'()*+,;=%-._~", min_size=3, max_size=12)
HOSTS = st.sampled_from(["host", "[bad", "host:99999", "[::1", "h/x", "host:port", "ex ample"])


@given(PASSWORDS, HOSTS, st.sampled_from(["http", "https", "ftp"]))
def test_userinfo_is_redacted_whether_the_url_parses_or_not(password, host, scheme):
    url = f"{scheme}://user:{password}@{host}/api"
    assert password not in redact(f"error on {url}: failed", url)
    assert password not in redact(url)


def test_every_url_of_a_message_loses_its_userinfo_and_only_that():
    """One redaction (gpudash.base.errors.redact) for error lines and HTTP messages alike: each URL of a message
    loses its user:password, the decoded password too, and an ``@`` in a path stays."""
    text = "from http://a:pw%401@h1/x and https://b:pw2@h2/p@q (password pw@1)"
    want = "from http://***@h1/x and https://***@h2/p@q (password ***)"
    assert redact(text) == want and str(GpudashError(text)) == want


@given(st.text(max_size=50))
def test_printable_leaves_no_control_character(text):
    out = printable(text)
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or c in "\u2028\u2029" for c in out)


# --- the Prometheus client over generated answers -----------------------------------------------------------------
VALUES = st.one_of(st.sampled_from(["NaN", "+Inf", "-Inf", "1e309", "1e300", "-3.2", "3.2", "0", "1e12", "1.1e12",
                                    "", "0x10", " 1"]),
                   st.floats().map(repr), st.integers().map(str), st.text(max_size=6))
SAMPLE = st.fixed_dictionaries({"metric": st.one_of(st.dictionaries(st.text(max_size=5), st.text(max_size=5),
                                                                    max_size=3), JSON),
                                "value": st.one_of(st.tuples(st.integers(0, 2**31), VALUES).map(list), JSON)})
ANSWER = st.one_of(
    st.fixed_dictionaries({"status": st.sampled_from(["success", "error", 5]),
                           "data": st.one_of(st.fixed_dictionaries({"resultType": st.sampled_from(["vector", "scalar",
                                                                                                   "matrix", 3]),
                                                                    "result": st.one_of(st.lists(SAMPLE, max_size=3),
                                                                                        JSON)}),
                                             JSON)},
                          optional={"warnings": st.one_of(st.lists(st.text(max_size=5), max_size=2), JSON),
                                    "errorType": JSON, "error": JSON}),
    JSON)


class _Server(StandIn):
    def __init__(self):
        self.reply = (200, b"{}")
        super().__init__(lambda request: (*self.reply, "application/json"))


@pytest.fixture(scope="module")
def server():
    with _Server() as srv:
        yield srv


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ANSWER, st.sampled_from([200, 200, 206, 500, 502]))
def test_any_answer_is_checked_figures_or_one_line(server, answer, status):
    server.reply = (status, json.dumps(answer).encode())
    prom = Prometheus(server.url, token="tok-never-shown", timeout=5)
    try:
        rows = prom.query("up", 1)
    except GpudashError as err:
        assert "\n" not in str(err) and "tok-never-shown" not in str(err)
        return
    assert status == 200
    for labels, value in rows:
        assert all(isinstance(v, str) for v in labels.values())
        assert math.isfinite(value) and abs(value) <= MAX_FIGURE


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(min_value=1, max_value=300_000), st.integers(min_value=1, max_value=300_000))
def test_the_size_cap_is_exact(server, size, cap):
    server.reply = (200, json.dumps("x" * max(0, size - 2)).encode())
    session = Prometheus(server.url).session
    try:
        answer = httpread.fetch(session, "GET", server.url, timeout=5, max_bytes=cap)
    except httpread.TooLarge:
        assert max(size, 2) > cap
    else:
        assert len(answer.body) == max(size, 2) <= cap


def test_the_default_cap_is_well_under_100_mb():
    assert 2**20 <= httpread.DEFAULT_MAX_BYTES <= 50 * 2**20
