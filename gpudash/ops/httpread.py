"""One validated way to read an HTTP JSON API (Prometheus/Thanos, Grafana): what a broken or hostile server can
do to a reader is bounded here, once.

* **A total deadline** per request: connect, headers and the whole body. The request runs in a worker thread the
  caller stops waiting for at the deadline; the worker reads the body in small pieces (``read1``: whatever has
  arrived) and stops at the deadline too, so a server dripping a byte every half second is cut.
* **A body size cap** (:data:`DEFAULT_MAX_BYTES`, ``--max-response-bytes`` raises it): a larger declared
  ``Content-Length`` is refused before reading, a longer body as soon as it passes the cap.
* **A JSON depth cap** (:data:`MAX_DEPTH`) checked on the raw bytes before ``json.loads`` (no ``RecursionError``);
  ``NaN``/``Infinity`` literals, which Python's json accepts and JSON does not, are refused.
* **Secrets** stay out of messages: :func:`gpudash.base.errors.redact` (their one home) removes a URL's userinfo,
  parsable or not, and any secret string given (the bearer token, the password).

Failures are :class:`ReadError` subclasses; each API client phrases its own one line from them.
"""
from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from gpudash.base.errors import GpudashError, redact
from gpudash.base.terminal import printable

DEFAULT_MAX_BYTES = 32 * 2**20  # every answer gpudash reads is far smaller; 200 MB answers are refused, not buffered
MAX_DEPTH = 64  # Prometheus answers nest 6 deep (data.groups[].rules[].labels), Grafana's 4
CHUNK = 64 * 1024
_GRACE = 0.2  # seconds the caller waits past the deadline for the worker to report it itself


class ReadError(GpudashError):
    """A request failed; subclasses say how."""


class Deadline(ReadError):
    """No complete answer within the total deadline."""


class TooLarge(ReadError):
    """The body is larger than the cap."""

    def __init__(self, limit: int):
        self.limit = limit
        super().__init__(f"the answer is larger than {limit} bytes (--max-response-bytes)")


class Transport(ReadError):
    """The server could not be reached or the connection failed (``tls`` for a certificate problem)."""

    def __init__(self, reason: str, tls: bool = False):
        self.reason, self.tls = reason, tls
        super().__init__(reason)


class NotJSON(ReadError):
    """The body is not (acceptable) JSON."""


class TooDeep(NotJSON):
    """The body nests deeper than the cap."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    content_type: str

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def snippet(self, limit: int = 120) -> str:
        """The start of the body on one printable line."""
        flat = " ".join(self.text[: limit * 4].split())
        return printable(flat[:limit]) + ("..." if len(flat) > limit else "")

    def json(self, max_depth: int = MAX_DEPTH):
        return loads(self.body, max_depth)


def fetch(session, method: str, url: str, *, timeout: float, max_bytes: int = DEFAULT_MAX_BYTES,
          **kwargs) -> Answer:
    """``session.request(method, url, **kwargs)`` (a requests.Session) read whole within ``timeout`` seconds in
    total and ``max_bytes``; raises :class:`Deadline`, :class:`TooLarge` or :class:`Transport`."""
    deadline = time.monotonic() + timeout
    box: dict = {}

    def work():
        try:
            box["answer"] = _read(session, method, url, deadline, max_bytes, kwargs, box)
        except BaseException as err:  # noqa: BLE001 - handed over to the caller's thread as it is
            box["error"] = err

    worker = threading.Thread(target=work, name="gpudash-http", daemon=True)
    worker.start()
    worker.join(max(0.0, deadline - time.monotonic()) + _GRACE)
    if worker.is_alive():
        resp = box.get("response")
        if resp is not None:
            resp.close()  # unblocks the worker's read where the socket allows it
        raise Deadline()
    if "error" in box:
        raise box["error"]
    return box["answer"]


def _read(session, method: str, url: str, deadline: float, max_bytes: int, kwargs: dict, box: dict) -> Answer:
    import requests

    left = lambda: max(0.001, deadline - time.monotonic())  # noqa: E731
    try:
        resp = session.request(method, url, stream=True, timeout=(left(), left()), **kwargs)
    except requests.exceptions.SSLError as err:
        raise Transport(reason(err), tls=True) from None
    except requests.exceptions.Timeout:
        raise Deadline() from None
    except Exception as err:  # noqa: BLE001 - any other failure to send (requests' or urllib3's): one line
        raise Transport(reason(err)) from None
    box["response"] = resp
    try:
        declared = resp.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            raise TooLarge(max_bytes)
        pieces, size = [], 0
        while True:
            if time.monotonic() > deadline:
                raise Deadline()
            piece = resp.raw.read1(CHUNK, decode_content=True)
            if not piece:
                break
            size += len(piece)
            if size > max_bytes:
                raise TooLarge(max_bytes)
            pieces.append(piece)
    except ReadError:
        raise
    except Exception as err:  # noqa: BLE001 - requests', urllib3's (ProtocolError, ReadTimeoutError) or OSErrors
        if time.monotonic() >= deadline or "timed out" in str(err):  # the socket timeout is the deadline's rest
            raise Deadline() from None
        raise Transport(reason(err)) from None
    finally:
        resp.close()
    return Answer(resp.status_code, b"".join(pieces), resp.headers.get("Content-Type", ""))


# --- JSON ---------------------------------------------------------------------------------------------------------
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = bytes(sorted(set(range(256)) - set(b"[]{}")))
_PAIR = re.compile(rb"\[\]|\{\}")


def too_deep(body: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON text ``body`` nests arrays/objects deeper than ``limit``: strings are cut out, then the
    innermost bracket pairs are removed ``limit`` times (C-speed passes over the bytes, no recursion)."""
    brackets = _STRING.sub(b"", body).translate(None, _NOT_BRACKET)
    for _ in range(limit):
        inner = _PAIR.sub(b"", brackets)  # one level: the pairs that are innermost now
        if inner == brackets:  # empty, or unbalanced (json.loads says so)
            return False
        brackets = inner
    return bool(brackets) and _PAIR.sub(b"", brackets) != brackets


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def loads(body: bytes, max_depth: int = MAX_DEPTH):
    """``body`` parsed; :class:`NotJSON` for anything but plain JSON within ``max_depth``."""
    if too_deep(body, max_depth):
        raise TooDeep(f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(body, parse_constant=_no_constant)
    except (ValueError, RecursionError) as err:
        raise NotJSON(f"not JSON ({printable(str(err))[:80]})") from None


def reason(err: Exception) -> str:
    """The innermost readable cause of a requests/urllib3 error, on one printable line."""
    text = str(err)
    for marker in ("Connection refused", "Name or service not known", "nodename nor servname", "No route to host",
                   "Network is unreachable", "certificate verify failed", "wrong version number",
                   "Temporary failure in name resolution", "Connection reset by peer", "hostname mismatch"):
        if marker in text:
            if marker == "certificate verify failed":
                tail = text.split("certificate verify failed", 1)[1].split(")")[0].strip(" :")
                return f"certificate verify failed: {tail}" if tail else marker
            return marker
    text = printable(" ".join(text.split()))
    return text if len(text) <= 200 else text[:197] + "..."


_LOOPBACK = ("localhost", "127.0.0.1", "::1")


def transport_warnings(url: str, token: bool, insecure: bool, secret: str = "bearer token") -> list[str]:
    """What an operator must know about how a secret travels (printed on stderr by the commands): a token over
    plain http:// to anything but this machine (``oc port-forward`` to localhost is), and an unverified TLS
    certificate."""
    out = []
    try:
        local = (urlsplit(url).hostname or "") in _LOOPBACK or (urlsplit(url).hostname or "").startswith("127.")
    except ValueError:
        local = False
    if token and url.lower().startswith("http://") and not local:
        out.append(f"the {secret} is sent over plain http:// to {redact(url)}: anyone on the path can read it; "
                   "use https://")
    if insecure:
        out.append(f"--insecure-skip-verify: the TLS certificate of {redact(url)} is not verified; anyone on the "
                   "path can pose as the server (and read the token)")
    return out
