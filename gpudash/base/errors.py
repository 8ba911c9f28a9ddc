"""Errors gpudash reports to users: one readable line, mapped to an exit code by the CLI."""
from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

# scheme://... up to a blank: each URL in a message, whether or not it parses (a quote may be in a password)
_URL = re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://\S*")


def userinfo(url: str) -> str:
    """The user:password part of ``url``, parsable or not: everything between ``://`` and the last ``@`` before
    the path (or, when the URL does not parse, before the end)."""
    rest = url.partition("://")[2]
    try:
        urlsplit(url).port  # noqa: B018 - raises for a URL that does not parse
        authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    except ValueError:
        authority = rest
    return authority.rpartition("@")[0]


def redact(text: str, url: str | None = None, secrets: tuple[str | None, ...] = ()) -> str:
    """``text`` with the user information (``user:password@``) of every URL in it, and of ``url``, written
    ``***@`` (a password of 3 or more characters also where it stands alone, e.g. percent-decoded in an error
    message); and every non-empty ``secrets`` string (a bearer token, a password) written ``***``."""
    for info in sorted({userinfo(u) for u in [*_URL.findall(text), *([url] if url else [])]} - {""},
                       key=len, reverse=True):
        text = text.replace(info + "@", "***@")
        password = info.partition(":")[2]
        for form in {password, unquote(password)}:
            if len(form) >= 3:
                text = text.replace(form, "***")
    for s in secrets:
        if s:
            text = text.replace(s, "***")
    return text


class GpudashError(Exception):
    """Base class: ``str(err)`` is the one line printed to stderr, never with a URL's user:password."""

    exit_code = 2

    def __str__(self) -> str:
        return redact(super().__str__())


class InputError(GpudashError):
    """Bad user input: names the file, the line where known, the field path and the reason (exit 2)."""

    def __init__(self, file: str, path: str, reason: str, line: int | None = None):
        self.file, self.path, self.reason, self.line = file, path, reason, line
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {path}: {reason}" if path else f"{where}: {reason}")


class InputErrors(InputError):
    """Every error found in one input file (exit 2): a count, then one :class:`InputError` line each; its own
    file, path, reason and line are the first error's."""

    def __init__(self, errors: list[InputError]):
        first, self.errors = errors[0], errors
        super().__init__(first.file, first.path, first.reason, first.line)
        self.args = (f"{first.file}: {len(errors)} errors:\n" + "\n".join(f"  {e}" for e in errors),)


def raise_all(errors: list[InputError]) -> None:
    """Raise the one error as itself, several as :class:`InputErrors`; nothing when there is none."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise InputErrors(errors)


class GenerationError(GpudashError):
    """The model is valid but an artifact could not be generated safely (e.g. a tenant isolation violation)."""
