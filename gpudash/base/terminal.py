"""Text from outside (label values, server messages) made safe to print on a terminal or in one stderr line."""
from __future__ import annotations

import re

# C0 controls (ESC, CR, LF, TAB...), DEL, C1 controls, the Unicode line/paragraph separators and the bidi
# overrides and isolates: each can move the cursor, start a new line or reorder what the reader sees.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\\\\]")


def _escape(match: re.Match) -> str:
    c = match.group(0)
    if c == "\\":
        return "\\\\"  # escaped too, so an escaped control character cannot be forged from plain text
    return f"\\x{ord(c):02x}" if ord(c) <= 0xFF else f"\\u{ord(c):04x}"


def printable(text: str) -> str:
    """``text`` with every control character written as a visible escape (``\\x1b``, ``\\n``-> ``\\x0a``)."""
    return _UNSAFE.sub(_escape, text)
