"""How hard the slow proofs search: the daily run (the default: `bash scripts/test.sh`, `tox`, CI) or the thorough
one (``GPUDASH_THOROUGH=1``, nightly-style). Daily, the hypothesis properties that have long been stable draw a
fifth of their examples and Prometheus 2.42's MCO month covers the month's last days (3.5.3 runs all of it);
thorough, every property draws its full count and both versions run the whole month (docs/testing.md)."""
from __future__ import annotations

import os

ENV = "GPUDASH_THOROUGH"
THOROUGH = os.environ.get(ENV, "") == "1"
DAILY_SHARE = 5  # daily, a property draws 1/DAILY_SHARE of its thorough examples


def examples(thorough: int, floor: int = 20) -> int:
    """``max_examples`` for a property whose full search draws ``thorough`` examples."""
    return thorough if THOROUGH else max(min(floor, thorough), thorough // DAILY_SHARE)
