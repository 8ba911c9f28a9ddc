"""Times as every command prints them: RFC 3339 in UTC, whole seconds."""
from __future__ import annotations

from datetime import UTC, datetime


def rfc3339(seconds: float) -> str:
    """``2025-01-01T00:00:00Z`` (UTC, whole seconds)."""
    return datetime.fromtimestamp(int(seconds), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
