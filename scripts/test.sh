#!/usr/bin/env bash
# The whole test suite on a fresh machine: system tools, then tox (unit, golden, end-to-end tests and lint).
# tox runs from a virtual environment of its own (.tox/bootstrap): a Debian or Ubuntu python3 is externally
# managed (PEP 668) and refuses `pip install` (pypa/packaging.python.org
# source/specifications/externally-managed-environments.rst); install-system-deps.sh brings python3-venv.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh
bootstrap=.tox/bootstrap
[ -x "$bootstrap/bin/python3" ] || python3 -m venv "$bootstrap"
"$bootstrap/bin/python3" -m pip install -q --disable-pip-version-check "tox>=4"
exec "$bootstrap/bin/python3" -m tox -e py,lint "$@"
