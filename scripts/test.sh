#!/usr/bin/env bash
# The whole test suite on a fresh machine: system tools, then tox (unit, golden, end-to-end tests and lint).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh
python3 -m pip install -q --disable-pip-version-check "tox>=4"
exec python3 -m tox -e py,lint "$@"
