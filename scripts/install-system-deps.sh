#!/usr/bin/env bash
# Installs the real tools the test suite runs: promtool/prometheus (Debian "prometheus"), amtool
# (Debian "prometheus-alertmanager"), chromium and poppler-utils (HTML statements printed to PDF), qpdf (the
# Factur-X PDF's structure check, tests/integration/test_pdfa.py),
# openssl (a TLS test server) and python3-venv (scripts/test.sh runs tox from a virtual environment; Debian
# ships the venv module's ensurepip apart). On Debian, root installs them with apt-get, another user through
# sudo; elsewhere it says what is missing and exits non-zero. Then the Prometheus 3 toolset is fetched beside
# them, never installed (scripts/fetch-prometheus3.sh).
set -euo pipefail
here="$(dirname "$0")"

need=()
command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1 || need+=(prometheus)
command -v amtool >/dev/null 2>&1 || need+=(prometheus-alertmanager)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v pdfinfo >/dev/null 2>&1 || need+=(poppler-utils)
command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
[ ${#need[@]} -eq 0 ] && exec bash "$here/fetch-prometheus3.sh"

as_root=()
[ "$(id -u)" = 0 ] || as_root=(sudo)
if command -v apt-get >/dev/null 2>&1 && { [ ${#as_root[@]} -eq 0 ] || command -v sudo >/dev/null 2>&1; }; then
  echo "installing Debian packages: ${need[*]}" >&2
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" \
    >/dev/null
  # Debian enables the services it installs; on a real systemd host stop them (tests start their own).
  if [ -d /run/systemd/system ]; then
    "${as_root[@]}" systemctl disable --now prometheus.service prometheus-alertmanager.service >/dev/null 2>&1 || true
  fi
  exec bash "$here/fetch-prometheus3.sh"
fi
echo "gpudash tests need these Debian packages (or the same tools on PATH): ${need[*]}" >&2
echo "install them, e.g. 'sudo apt-get install --no-install-recommends ${need[*]}', then run again" >&2
exit 1
