#!/usr/bin/env bash
# The README's first step on a stock Debian 12/13 or Ubuntu 24.04: the Debian packages gpudash's demo needs, then
# gpudash with its report extra in a virtual environment of its own.
#
# A Debian or Ubuntu python3 is externally managed (PEP 668): `pip install` into it stops with
# "externally-managed-environment", and tools are to guide the user "towards using virtual environments"
# instead (pypa/packaging.python.org source/specifications/externally-managed-environments.rst).
#   Debian packages: python3, python3-venv (the venv module's ensurepip, which Debian ships apart), prometheus
#   (prometheus and promtool: the demo's local server and its backfill). Packages already there are left alone.
# As root apt-get runs directly (containers have no sudo), as another user through sudo.
# The environment: $GPUDASH_VENV, default ~/.venvs/gpudash; `. ~/.venvs/gpudash/bin/activate` puts its gpudash
# (and its python3, with gpudash) first on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${GPUDASH_VENV:-$HOME/.venvs/gpudash}"

need=()
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v python3 >/dev/null 2>&1 && python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
{ command -v prometheus && command -v promtool; } >/dev/null 2>&1 || need+=(prometheus)
if [ ${#need[@]} -gt 0 ]; then
  as_root=()
  [ "$(id -u)" = 0 ] || as_root=(sudo)
  echo "installing Debian packages: ${need[*]}" >&2
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

[ -x "$venv/bin/python3" ] || python3 -m venv "$venv"
"$venv/bin/python3" -m pip install -q --disable-pip-version-check '.[report]'
echo "gpudash is installed in $venv (\`. $venv/bin/activate\` puts it on PATH)" >&2
