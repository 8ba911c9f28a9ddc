"""``gpudash --help`` loads neither grafanalib nor an extra's package (a fresh interpreter, so nothing else imported
them first); the import-graph half of the layering contract: tests/unit/test_layering.py."""
from __future__ import annotations

import subprocess
import sys

from tests.unit.test_layering import PACKAGE


def test_help_does_not_load_grafanalib_or_the_extras():
    code = ("import sys\nfrom gpudash import cli\ntry:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass\n"
            "extras = {p for packages in cli.EXTRA_PACKAGES.values() for p in packages}\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'grafanalib', *extras}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            env=None, cwd=PACKAGE.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"
