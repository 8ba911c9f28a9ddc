"""Every registered series (gpudash/rules/names.py) is asserted by value in at least one rendered golden test."""
import re

import yaml

from gpudash import layout
from gpudash.rules import names

REPO = __import__("pathlib").Path(__file__).resolve().parent.parent
# Series no golden test can assert exactly, with the reason. Keep this as short as possible.
NOT_ASSERTED: dict[str, str] = {}


def asserted_series(folder) -> set[str]:
    """Registered series named in the expression of a promql_expr_test that expects samples."""
    found = set()
    for path in sorted((folder / layout.TESTS).glob(f"golden-{layout.TEST_GLOB}")):
        for group in yaml.safe_load(path.read_text())["tests"]:
            for test in group.get("promql_expr_test", ()):
                if test.get("exp_samples"):
                    found.update(n for n in names.SERIES if re.search(rf"(?<![\w:]){re.escape(n)}(?![\w:])",
                                                                       test["expr"]))
    return found


def test_every_registered_series_is_asserted_by_value():
    missing = sorted(set(names.SERIES) - asserted_series(REPO) - set(NOT_ASSERTED))
    assert not missing, "registered series never asserted by value in a golden test:\n" + "\n".join(missing)


def test_the_allowlist_names_registered_unasserted_series():
    assert set(NOT_ASSERTED) <= set(names.SERIES)
    assert not set(NOT_ASSERTED) & asserted_series(REPO)
