"""A small client for the Prometheus HTTP API (``/api/v1/query``, ``/api/v1/query_range``, ``/api/v1/series``).

The same API is served by Prometheus, Thanos Querier (also its tenancy port 9092, which needs a ``namespace``
query parameter), and the ACM hub's rbac-query-proxy. Every failure becomes one readable
:class:`~gpudash.errors.GpudashError` line: unreachable server, TLS failure, 401/403, timeout, a Prometheus
error response, or an answer that is not the Prometheus API at all (e.g. an OAuth login page).

Thanos answers a partial response (a store that did not answer) with ``status: success`` and ``warnings``;
those warnings are collected in :attr:`Prometheus.warnings` so reports can show them: partial data is never
silent.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from urllib.parse import urlencode

from gpudash.errors import GpudashError
from gpudash.promql.read import TOKEN_ENV

# Above this URL length the query is sent as a form POST (all three servers accept both).
_MAX_GET_URL = 4000


class PrometheusError(GpudashError):
    """A query could not be answered; ``str()`` is the one line shown to the user (exit 2)."""


Labels = dict[str, str]


@dataclass
class Prometheus:
    url: str
    token: str | None = None
    ca_file: str | None = None
    insecure_skip_verify: bool = False
    timeout: float = 60.0
    extra_params: dict[str, str] = field(default_factory=dict)  # e.g. {"namespace": ns} for thanos-querier :9092
    warnings: list[str] = field(default_factory=list)
    session: object = field(init=False, repr=False)  # a requests.Session (the report extra)

    def __post_init__(self):
        import requests

        self.session = requests.Session()
        self.url = self.url.rstrip("/")
        self.shown = redact_url(self.url)  # the URL as printed: never its user:password
        if not self.url.startswith(("http://", "https://")):
            raise PrometheusError(f"--prometheus-url {self.shown!r} must start with http:// or https://")
        if self.url.endswith("/api/v1"):
            raise PrometheusError(f"--prometheus-url {self.shown!r} ends in /api/v1: pass the base URL "
                                  f"({redact_url(self.url[:-len('/api/v1')])}); gpudash adds /api/v1/query itself")
        if self.token:
            self.session.headers["Authorization"] = f"Bearer {self.token}"
        self.session.headers["Accept"] = "application/json"
        # Passed on every request: a session-level value loses to $REQUESTS_CA_BUNDLE in requests.
        self.verify = False if self.insecure_skip_verify else (self.ca_file or True)
        if self.insecure_skip_verify:
            import urllib3

            urllib3.disable_warnings(urllib3.exceptions.InsecureRequestWarning)

    # --- API ---------------------------------------------------------------------------------------------------
    def query(self, expr: str, time: float) -> list[tuple[Labels, float]]:
        """Instant vector at ``time`` (seconds): [(labels, value)]."""
        data = self._call("/api/v1/query", {"query": expr, "time": _ts(time)})
        bad = _Shape(self, "/api/v1/query", expr)
        kind = bad.field(data, "resultType", str)
        if kind == "scalar":
            return [({}, bad.sample(bad.field(data, "result", list), "result"))]
        if kind != "vector":
            raise PrometheusError(f"expected an instant vector from {expr!r}, got a {kind}")
        return [(bad.labels(r, i), bad.sample(bad.field(r, "value", list, f"result[{i}]"), f"result[{i}].value"))
                for i, r in enumerate(bad.field(data, "result", list))]

    def query_range(self, expr: str, start: float, end: float, step: float) -> list[tuple[Labels, list]]:
        """Range query: [(labels, [(time, value)...])]; Prometheus evaluates at start + k * step <= end."""
        data = self._call("/api/v1/query_range",
                          {"query": expr, "start": _ts(start), "end": _ts(end), "step": _ts(step)})
        bad = _Shape(self, "/api/v1/query_range", expr)
        if bad.field(data, "resultType", str) != "matrix":
            bad.fail(f"resultType is {data['resultType']!r}, not 'matrix'")
        out = []
        for i, r in enumerate(bad.field(data, "result", list)):
            values = bad.field(r, "values", list, f"result[{i}]")
            out.append((bad.labels(r, i), [(bad.time(v, f"result[{i}].values[{k}]"),
                                            bad.sample(v, f"result[{i}].values[{k}]")) for k, v in enumerate(values)]))
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
        if not isinstance(data, list) or not all(isinstance(x, dict) for x in data):
            bad.fail("data is not a list of label sets")
        return data

    def rules(self) -> dict:
        """Loaded rule groups with their health (``/api/v1/rules``; Thanos Ruler and Querier serve it too)."""
        return self._call("/api/v1/rules", {})

    # --- transport ---------------------------------------------------------------------------------------------
    def _call(self, path: str, params: dict[str, str]):
        params = {**params, **self.extra_params}
        if path != "/api/v1/series":
            params["timeout"] = f"{max(1, math.floor(self.timeout))}s"  # server-side limit matches ours
        url = self.url + path
        import requests

        try:
            if len(url) + len(urlencode(params)) + 1 > _MAX_GET_URL:
                resp = self.session.post(url, data=params, timeout=self.timeout, verify=self.verify)
            else:
                resp = self.session.get(url, params=params, timeout=self.timeout, verify=self.verify)
        except requests.exceptions.SSLError as err:
            raise PrometheusError(
                f"TLS connection to {self.shown} failed ({self._redact(_reason(err))}): pass --ca-file with the CA "
                "that signed the server certificate, or --insecure-skip-verify for a test system") from None
        except requests.exceptions.Timeout:
            raise self._timeout_error() from None
        except requests.exceptions.ConnectionError as err:
            raise PrometheusError(
                f"cannot connect to Prometheus at {self.shown}: {self._redact(_reason(err))}") from None
        except requests.exceptions.RequestException as err:
            raise PrometheusError(f"request to {self.shown} failed: {self._redact(_reason(err))}") from None
        return self._data(resp, params.get("query") or params.get("match[]", ""))

    def _redact(self, text: str) -> str:
        """``text`` (e.g. a requests error naming the URL) without the URL's userinfo."""
        return redact_url(text, self.url)

    def _timeout_error(self) -> PrometheusError:
        return PrometheusError(
            f"Prometheus at {self.shown} did not answer within {self.timeout:g}s (--timeout): raise --timeout, "
            "or report a shorter period")

    def _data(self, resp, query: str):
        if resp.status_code == 401:
            raise PrometheusError(
                f"Prometheus at {self.shown} answered 401 Unauthorized: the bearer token (--token or {TOKEN_ENV}) "
                "is missing, invalid or expired")
        if resp.status_code == 403:
            raise PrometheusError(
                f"Prometheus at {self.shown} answered 403 Forbidden: this token may not read the series asked for "
                "(a tenant token needs --tenant, so that every query carries the tenant's namespace)")
        try:
            body = resp.json()
        except ValueError:
            snippet = " ".join(resp.text.split())[:120]
            hint = " (a login page means the endpoint wants a bearer token)" if "<html" in resp.text.lower() else ""
            raise PrometheusError(
                f"{self.shown} answered HTTP {resp.status_code} with something that is not the Prometheus API"
                f"{hint}: {snippet!r}") from None
        if not isinstance(body, dict) or body.get("status") != "success":
            kind = body.get("errorType", "error") if isinstance(body, dict) else "error"
            message = body.get("error", resp.text[:200]) if isinstance(body, dict) else resp.text[:200]
            if kind == "timeout":
                raise self._timeout_error()
            short = query if len(query) <= 160 else query[:157] + "..."
            raise PrometheusError(
                f"Prometheus at {self.shown} rejected a query (HTTP {resp.status_code}, {kind}: {message}); "
                f"query: {short}")
        for w in body.get("warnings") or ():
            if w not in self.warnings:
                self.warnings.append(f"the query API warned (partial data?): {w}")
        if "data" not in body:
            raise PrometheusError(f"{self.shown} answered HTTP {resp.status_code} with status success but no data: "
                                  "not the Prometheus query API")
        return body["data"]


class _Shape:
    """Checks one answer against the Prometheus HTTP API's documented result formats (prometheus/prometheus
    docs/querying/api.md, 'Expression query result formats'), so a malformed answer is one readable error."""

    def __init__(self, prom: Prometheus, path: str, query: str):
        self.where, self.query = f"{prom.shown}{path}", query if len(query) <= 120 else query[:117] + "..."

    def fail(self, what: str):
        raise PrometheusError(f"{self.where} answered with a malformed Prometheus API response: {what}; "
                              f"query: {self.query}")

    def field(self, obj, key: str, kind: type, where: str = "data"):
        if not isinstance(obj, dict):
            self.fail(f"{where} is a {type(obj).__name__}, not an object")
        if key not in obj:
            self.fail(f"{where} has no {key!r}")
        if not isinstance(obj[key], kind):
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
        if isinstance(t, bool) or not isinstance(t, int | float):
            self.fail(f"{where} has a time that is not a number: {t!r}")
        return float(t)

    def sample(self, pair, where: str) -> float:
        value = self._pair(pair, where)[1]
        try:
            if not isinstance(value, str):
                raise ValueError
            return _num(value)
        except ValueError:
            self.fail(f"{where} has a value that is not a number in a string: {value!r}")


def _userinfo(url: str) -> str:
    """The user:password part of ``url`` (RFC 3986 userinfo), or ''."""
    return url.partition("://")[2].partition("/")[0].rpartition("@")[0]


def redact_url(text: str, url: str | None = None) -> str:
    """``text`` with the userinfo of ``url`` (default: ``text`` itself) replaced by ``***``, for messages."""
    userinfo = _userinfo(text if url is None else url)
    return text.replace(userinfo + "@", "***@") if userinfo else text


def _ts(seconds: float) -> str:
    return f"{seconds:.3f}".rstrip("0").rstrip(".")


def _num(text: str) -> float:
    return float(text)  # Prometheus encodes NaN/+Inf/-Inf as strings Python's float() reads


def _reason(err: Exception) -> str:
    """The innermost readable cause of a requests/urllib3 error."""
    text = str(err)
    for marker in ("Connection refused", "Name or service not known", "nodename nor servname", "No route to host",
                   "Network is unreachable", "certificate verify failed", "wrong version number",
                   "Temporary failure in name resolution", "Connection reset by peer", "hostname mismatch"):
        if marker in text:
            if marker == "certificate verify failed":
                tail = text.split("certificate verify failed", 1)[1].split(")")[0].strip(" :")
                return f"certificate verify failed: {tail}" if tail else marker
            return marker
    return text if len(text) <= 200 else text[:197] + "..."
