"""A small client for the Prometheus HTTP API (``/api/v1/query``, ``/api/v1/query_range``, ``/api/v1/series``).

Every request goes through :mod:`gpudash.ops.httpread` (total deadline, body size and JSON depth caps); every field
of an answer is checked before use, a non-200 answer is an error whatever its body, and every sample value read as
a figure must be finite and within :data:`MAX_FIGURE`.

The same API is served by Prometheus, Thanos Querier (also its tenancy port 9092, which needs a ``namespace``
query parameter), and the ACM hub's rbac-query-proxy. Every failure becomes one readable
:class:`~gpudash.base.errors.GpudashError` line: unreachable server, TLS failure, 401/403, timeout, a Prometheus
error response, or an answer that is not the Prometheus API at all (e.g. an OAuth login page).

Thanos answers a partial response (a store that did not answer) with ``status: success`` and ``warnings``: one
string per error, e.g. ``receive series from <store>: ...`` (thanos-io/thanos pkg/api/query/v1.go collects the
query's ``warnings []error``, pkg/api/api.go ``Respond`` writes each ``warn.Error()`` into the envelope's
``warnings``; pkg/store/proxy_merge.go words the store's). Those warnings are collected in
:attr:`Prometheus.warnings`; any of them makes a report partial (:attr:`Prometheus.partial`), which
``report`` refuses unless ``--allow-partial``, and then marks: partial data is never silent nor final.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlencode

from gpudash.base.environ import TOKEN_ENV
from gpudash.base.errors import GpudashError, redact, userinfo
from gpudash.base.terminal import printable
from gpudash.base.timestamps import rfc3339
from gpudash.ops import httpread

# Above this URL length the query is sent as a form POST (all three servers accept both).
_MAX_GET_URL = 4000


class PrometheusError(GpudashError):
    """A query could not be answered; ``str()`` is the one line shown to the user (exit 2)."""


Labels = dict[str, str]
# The largest magnitude a sample may have to be printed as a figure: no GPU fleet holds 10^12 GPUs, no invoice
# line is 10^12 of any currency; beyond it (1e300, 1e309 = +Inf) the value is a broken series, not usage.
MAX_FIGURE = 1e12


@dataclass
class Prometheus:
    url: str
    token: str | None = None
    ca_file: str | None = None
    insecure_skip_verify: bool = False
    timeout: float = 60.0
    extra_params: dict[str, str] = field(default_factory=dict)  # e.g. {"namespace": ns} for thanos-querier :9092
    warnings: list[str] = field(default_factory=list)  # the query API's warnings, one line each
    max_response_bytes: int = httpread.DEFAULT_MAX_BYTES
    session: object = field(init=False, repr=False)  # a requests.Session (the report extra)

    def __post_init__(self):
        import requests

        self.session = requests.Session()
        self.url = self.url.rstrip("/")
        self.shown = redact(self.url)  # the URL as printed: never its user:password
        if not self.url.startswith(("http://", "https://")):
            raise PrometheusError(f"--prometheus-url {self.shown!r} must start with http:// or https://")
        if self.url.endswith("/api/v1"):
            raise PrometheusError(f"--prometheus-url {self.shown!r} ends in /api/v1: pass the base URL "
                                  f"({redact(self.url[:-len('/api/v1')])}); gpudash adds /api/v1/query itself")
        if self.token and userinfo(self.url):
            # requests would send the URL's user:password as Basic auth in place of the bearer token
            raise PrometheusError(f"--prometheus-url {self.shown!r} carries a user:password and a bearer token is "
                                  f"given too (--token, --token-file or {TOKEN_ENV}): pass one of them")
        if self.token:
            self.session.headers["Authorization"] = f"Bearer {self.token}"
        self.session.headers["Accept"] = "application/json"
        # Passed on every request: a session-level value loses to $REQUESTS_CA_BUNDLE in requests.
        self.verify = False if self.insecure_skip_verify else (self.ca_file or True)
        if self.insecure_skip_verify:
            import urllib3

            urllib3.disable_warnings(urllib3.exceptions.InsecureRequestWarning)

    @property
    def partial(self) -> bool:
        """Whether an answer so far warned that data may be missing. Every warning counts, PromQL annotations too
        (``PromQL warning: ...``: the engine left samples out of a figure), stricter than Thanos's own cache, which
        keeps those (pkg/api/api.go ``shouldNotCacheBecauseOfWarnings``)."""
        return bool(self.warnings)

    # --- API ---------------------------------------------------------------------------------------------------
    def query(self, expr: str, time: float, figures: bool = True) -> list[tuple[Labels, float]]:
        """Instant vector at ``time`` (seconds): [(labels, value)]. With ``figures`` (the default) every value
        must be a finite number within :data:`MAX_FIGURE`, else the answer is an error naming the series."""
        data = self._call("/api/v1/query", {"query": expr, "time": _ts(time)})
        bad = _Shape(self, "/api/v1/query", expr, figures)
        kind = bad.field(data, "resultType", str)
        if kind == "scalar":
            return [({}, bad.sample(bad.field(data, "result", list), "result", {}))]
        if kind != "vector":
            bad.fail(f"expected an instant vector, got a {printable(kind)[:40]}")
        out = []
        for i, r in enumerate(bad.field(data, "result", list)):
            labels = bad.labels(r, i)
            out.append((labels, bad.sample(bad.field(r, "value", list, f"result[{i}]"), f"result[{i}].value",
                                           labels)))
        return out

    def query_range(self, expr: str, start: float, end: float, step: float,
                    figures: bool = True) -> list[tuple[Labels, list]]:
        """Range query: [(labels, [(time, value)...])]; Prometheus evaluates at start + k * step <= end."""
        data = self._call("/api/v1/query_range",
                          {"query": expr, "start": _ts(start), "end": _ts(end), "step": _ts(step)})
        bad = _Shape(self, "/api/v1/query_range", expr, figures)
        kind = bad.field(data, "resultType", str)
        if kind != "matrix":
            bad.fail(f"resultType is {printable(kind)[:40]!r}, not 'matrix'")
        out = []
        for i, r in enumerate(bad.field(data, "result", list)):
            labels = bad.labels(r, i)
            values = bad.field(r, "values", list, f"result[{i}]")
            out.append((labels, [(bad.time(v, f"result[{i}].values[{k}]"),
                                  bad.sample(v, f"result[{i}].values[{k}]", labels)) for k, v in enumerate(values)]))
        return out

    def series(self, match: str, start: float | None = None, end: float | None = None) -> list[Labels]:
        """Series matching ``match`` (any time when start/end are omitted)."""
        params = {"match[]": match}
        if start is not None:
            params["start"] = _ts(start)
        if end is not None:
            params["end"] = _ts(end)
        data = self._call("/api/v1/series", params)
        bad = _Shape(self, "/api/v1/series", match)
        if not isinstance(data, list) or not all(isinstance(x, dict) and all(isinstance(v, str) for v in x.values())
                                                 for x in data):
            bad.fail("data is not a list of label sets")
        return data

    def rules(self) -> list[dict]:
        """Loaded rule groups with their health (``/api/v1/rules``; Thanos Ruler and Querier serve it too), each
        checked against the API's documented shape (prometheus/prometheus docs/querying/api.md, "Rules"):
        ``name`` and ``rules`` always; ``interval`` a number and ``lastEvaluation`` an RFC 3339 time when present
        (``lastEvaluation`` is parsed into a datetime here)."""
        data = self._call("/api/v1/rules", {})
        bad = _Shape(self, "/api/v1/rules", "")
        out = []
        for i, g in enumerate(bad.field(data, "groups", list)):
            where = f"groups[{i}]"
            group = {"name": bad.field(g, "name", str, where), "rules": bad.field(g, "rules", list, where)}
            for k, r in enumerate(group["rules"]):
                if not isinstance(r, dict) or not all(isinstance(r.get(f), str | None)
                                                      for f in ("name", "alert", "health", "lastError")):
                    bad.fail(f"{where}.rules[{k}] is not a rule object with string fields")
            interval = g.get("interval", 60)
            if isinstance(interval, bool) or not isinstance(interval, int | float) or not 0 < interval < 1e9:
                bad.fail(f"{where}.interval is not a positive number of seconds")
            group["interval"] = float(interval)
            group["lastEvaluation"] = _rfc3339(bad, g.get("lastEvaluation"), f"{where}.lastEvaluation")
            out.append(group)
        return out

    # --- transport ---------------------------------------------------------------------------------------------
    def _call(self, path: str, params: dict[str, str]):
        params = {**params, **self.extra_params}
        if path != "/api/v1/series":
            params["timeout"] = f"{max(1, math.floor(self.timeout))}s"  # server-side limit matches ours
        url = self.url + path
        if len(url) + len(urlencode(params)) + 1 > _MAX_GET_URL:
            method, sent = "POST", {"data": params}
        else:
            method, sent = "GET", {"params": params}
        try:
            answer = httpread.fetch(self.session, method, url, timeout=self.timeout,
                                    max_bytes=self.max_response_bytes, verify=self.verify, **sent)
        except httpread.Deadline:
            raise self._timeout_error() from None
        except httpread.TooLarge as err:
            raise PrometheusError(f"Prometheus at {self.shown} sent an answer larger than {err.limit} bytes "
                                  "(--max-response-bytes): report a shorter period or fewer series") from None
        except httpread.Transport as err:
            if err.tls:
                raise PrometheusError(
                    f"TLS connection to {self.shown} failed ({self._redact(err.reason)}): pass --ca-file with the CA "
                    "that signed the server certificate, or --insecure-skip-verify for a test system") from None
            raise PrometheusError(
                f"cannot connect to Prometheus at {self.shown}: {self._redact(err.reason)}") from None
        return self._data(answer, params.get("query") or params.get("match[]", ""))

    def _redact(self, text: str) -> str:
        """``text`` (e.g. a requests error or a server message) without the URL's userinfo and the token."""
        return redact(text, self.url, (self.token,))

    def _timeout_error(self) -> PrometheusError:
        return PrometheusError(
            f"Prometheus at {self.shown} did not answer within {self.timeout:g}s (--timeout): raise --timeout, "
            "or report a shorter period")

    def _data(self, answer: httpread.Answer, query: str):
        code = answer.status
        if code == 401:
            raise PrometheusError(
                f"Prometheus at {self.shown} answered 401 Unauthorized: the bearer token (--token, --token-file or "
                f"{TOKEN_ENV}) is missing, invalid or expired")
        if code == 403:
            raise PrometheusError(
                f"Prometheus at {self.shown} answered 403 Forbidden: this token may not read the series asked for "
                "(a tenant token needs --tenant, so that every query carries the tenant's namespace)")
        try:
            body = answer.json()
        except httpread.NotJSON as err:
            hint = " (a login page means the endpoint wants a bearer token)" if "<html" in answer.text.lower() else ""
            what = str(err) if isinstance(err, httpread.TooDeep) else repr(self._redact(answer.snippet()))
            raise PrometheusError(
                f"{self.shown} answered HTTP {code} with something that is not the Prometheus API{hint}: "
                f"{what}") from None
        short = query if len(query) <= 160 else query[:157] + "..."
        if not isinstance(body, dict) or body.get("status") not in ("success", "error"):
            raise PrometheusError(f"{self.shown} answered HTTP {code} with JSON that is not the Prometheus API "
                                  f"(no status success or error); query: {short}")
        if body["status"] != "success" or code != 200:
            kind, message = body.get("errorType"), body.get("error")
            if kind == "timeout":
                raise self._timeout_error()
            text = f"{printable(str(kind))[:40]}: {self._redact(printable(str(message)))[:200]}" \
                if body["status"] == "error" else "with a success body, which a failed request cannot have"
            raise PrometheusError(f"Prometheus at {self.shown} rejected a query (HTTP {code}, {text}); "
                                  f"query: {short}")
        warnings = body.get("warnings") or []
        if not isinstance(warnings, list) or not all(isinstance(w, str) for w in warnings):
            raise PrometheusError(f"{self.shown} answered with a malformed Prometheus API response: warnings is "
                                  f"not a list of strings; query: {short}")
        for w in warnings:
            w = f"the query API warned (partial data?): {self._redact(printable(w))[:300]}"
            if w not in self.warnings:
                self.warnings.append(w)
        if "data" not in body:
            raise PrometheusError(f"{self.shown} answered HTTP {code} with status success but no data: "
                                  "not the Prometheus query API")
        return body["data"]


class _Shape:
    """Checks one answer against the Prometheus HTTP API's documented result formats (prometheus/prometheus
    docs/querying/api.md, 'Expression query result formats'), so a malformed answer is one readable error."""

    def __init__(self, prom: Prometheus, path: str, query: str, figures: bool = True):
        self.where, self.query = f"{prom.shown}{path}", query if len(query) <= 120 else query[:117] + "..."
        self.figures = figures

    def fail(self, what: str):
        raise PrometheusError(f"{self.where} answered with a malformed Prometheus API response: {what}"
                              + (f"; query: {self.query}" if self.query else ""))

    def field(self, obj, key: str, kind: type, where: str = "data"):
        if not isinstance(obj, dict):
            self.fail(f"{where} is a {type(obj).__name__}, not an object")
        if key not in obj:
            self.fail(f"{where} has no {key!r}")
        if not isinstance(obj[key], kind) or isinstance(obj[key], bool) and kind is not bool:
            self.fail(f"{where}.{key} is a {type(obj[key]).__name__}, not a {kind.__name__}")
        return obj[key]

    def labels(self, sample, index: int) -> Labels:
        metric = self.field(sample, "metric", dict, f"result[{index}]")
        if not all(isinstance(v, str) for v in metric.values()):
            self.fail(f"result[{index}].metric has a label value that is not a string")
        return metric

    def _pair(self, pair, where: str) -> list:
        if not isinstance(pair, list) or len(pair) != 2:
            self.fail(f"{where} is not a [time, value] pair")
        return pair

    def time(self, pair, where: str) -> float:
        t = self._pair(pair, where)[0]
        if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t < 1e11:
            self.fail(f"{where} has a time that is not a Unix time in seconds: {printable(repr(t))[:40]}")
        return float(t)

    def sample(self, pair, where: str, labels: Labels) -> float:
        value = self._pair(pair, where)[1]
        try:
            if not isinstance(value, str) or len(value) > 64:
                raise ValueError
            number = float(value)  # Prometheus encodes NaN/+Inf/-Inf as strings float() reads
        except ValueError:
            self.fail(f"{where} has a value that is not a number in a string: {printable(repr(value))[:40]}")
        if self.figures and not (math.isfinite(number) and abs(number) <= MAX_FIGURE):
            raise PrometheusError(f"{self.where}: series {series_name(labels)} has the value {value}, which is "
                                  f"not a figure gpudash can print (not a finite number within ±{MAX_FIGURE:g}): "
                                  f"fix the series or the rule recording it; query: {self.query}")
        return number


def nonnegative(prom: Prometheus, labels: dict, value: float, at: float | None = None) -> float:
    """``value`` of a quantity or an amount of money: never below zero (a negative invoice line is a broken
    series or rule, not a credit), else an error naming the series."""
    if value < 0:
        when = f" at {rfc3339(int(at))}" if at is not None else ""
        raise PrometheusError(f"{prom.shown}: series {series_name(labels)} has the negative value {value:g}{when}: "
                              "counts, GPU quantities and costs are never negative; fix the series or the rule "
                              "recording it")
    return value


def series_name(labels: Labels) -> str:
    """``name{label="value", ...}`` of a series, printable on one line (label values escaped)."""
    name = labels.get("__name__", "")
    inner = ", ".join(f'{k}="{printable(v)[:200]}"' for k, v in sorted(labels.items()) if k != "__name__")
    return f"{printable(name)}{{{inner}}}"


def _rfc3339(bad: _Shape, text, where: str) -> datetime | None:
    """An RFC 3339 time of the API (Go's time.Time in JSON) as a UTC datetime; None for Go's zero time (never)."""
    if text is None:
        return None
    try:
        if not isinstance(text, str) or len(text) > 40:
            raise ValueError
        at = datetime.fromisoformat(text)
        if at.tzinfo is None:
            raise ValueError
    except ValueError:
        bad.fail(f"{where} is not an RFC 3339 time: {printable(repr(text))[:50]}")
    return None if at.year < 1970 else at


def _ts(seconds: float) -> str:
    return f"{seconds:.3f}".rstrip("0").rstrip(".")
