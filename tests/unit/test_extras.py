"""Each runtime command's extra: cli.EXTRA_PACKAGES equals pyproject's optional-dependencies, and a missing package
of the extra is the one line naming `pip install 'gpudash[EXTRA]'`, never a traceback."""
from __future__ import annotations

import argparse
import importlib
import re
import sys
import tomllib

import pytest

from gpudash import cli
from tests.unit.test_layering import PACKAGE


def _pyproject_extras() -> dict[str, set[str]]:
    extras = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    return {extra: {re.match(r"[A-Za-z0-9_.-]+", req)[0].lower() for req in reqs} for extra, reqs in extras.items()}


def test_the_table_is_pyprojects_extras():
    extras = _pyproject_extras()
    assert set(cli.EXTRAS.values()) == set(cli.EXTRA_PACKAGES)
    for extra, packages in cli.EXTRA_PACKAGES.items():
        assert set(packages) == extras[extra], extra


@pytest.mark.parametrize("command,package", [(c, p) for c, e in cli.EXTRAS.items() for p in cli.EXTRA_PACKAGES[e]])
def test_a_missing_package_is_one_line_naming_the_extra(command, package, monkeypatch, capsys):
    def parsed(_parser, _argv):  # the command as parsed, running into the import where it would import the package
        return argparse.Namespace(command=command, func=lambda _: importlib.import_module(package))

    monkeypatch.setitem(sys.modules, package, None)  # `import package` raises ModuleNotFoundError(name=package)
    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parsed)
    assert cli.main([command]) == 2
    err = capsys.readouterr().err
    assert err == f"gpudash: {command} needs the {package} package: pip install 'gpudash[{cli.EXTRAS[command]}]'\n"
