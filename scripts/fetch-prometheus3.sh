#!/usr/bin/env bash
# Fetches the Prometheus 3 toolset the tests run besides the system's 2.x: Debian's "prometheus" and "promtool"
# packages from the suite named in scripts/prometheus-versions.env, downloaded with a temporary sources list
# and unpacked with `dpkg -x` into a tool folder (bin/prometheus, bin/promtool, VERSION). Nothing is installed
# and the system's apt state is untouched (own sources list, package lists, cache and status). Idempotent: a
# folder whose binaries already report the pinned version is kept. Without apt-get/dpkg it explains and exits
# 0, so the 3.x tests skip locally; in CI (CI=true) that is an error, as the tests would fail anyway.
set -euo pipefail
# shellcheck source=prometheus-versions.env
source "$(dirname "$0")/prometheus-versions.env"
dir="${GPUDASH_PROMETHEUS3_DIR:-$PROMETHEUS3_DIR}"
want="$PROMETHEUS3_VERSION"

reports_version() {  # the binary runs and prints "<name>, version <want>" (Debian appends +ds...)
  "$1" --version 2>&1 | head -1 | grep -Eq "version ${want//./\\.}([+~ -]|$)"
}
if [ -x "$dir/bin/prometheus" ] && [ -x "$dir/bin/promtool" ] \
   && reports_version "$dir/bin/prometheus" && reports_version "$dir/bin/promtool"; then
  exit 0
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1 || [ ! -r "$keyring" ]; then
  echo "Prometheus $want is not in $dir and fetching it needs Debian's apt-get, dpkg and $keyring; put its" \
       "prometheus and promtool in \$GPUDASH_PROMETHEUS3_DIR/bin to run the 3.x tests" >&2
  [ "${CI:-}" = true ] && exit 1
  exit 0
fi
mkdir -p "$(dirname "$dir")" 2>/dev/null || true
if [ ! -w "$(dirname "$dir")" ]; then
  echo "cannot write $(dirname "$dir"): run as root or set GPUDASH_PROMETHEUS3_DIR to a writable folder" >&2
  exit 1
fi

tmp="$(mktemp -d)"
stage="$dir.new.$$"
trap 'rm -rf "$tmp" "$stage"' EXIT
mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/debs" "$tmp/root" "$stage/bin"
echo "deb [signed-by=$keyring] http://deb.debian.org/debian" \
     "$PROMETHEUS3_SUITE main" > "$tmp/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$tmp/sources.list" -o Dir::Etc::sourceparts=/dev/null
          -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache" -o Dir::State::status=/dev/null
          -o "APT::Sandbox::User=$(id -un)")
echo "fetching Prometheus $want from Debian $PROMETHEUS3_SUITE into $dir" >&2
apt-get "${apt_opts[@]}" -qq update
for pkg in prometheus promtool; do
  have="$(apt-cache "${apt_opts[@]}" policy "$pkg" | awk '/Candidate:/ {print $2}')"
  if ! [[ "$have" =~ ^${want//./\\.}[+~-] ]]; then
    echo "Debian $PROMETHEUS3_SUITE carries $pkg ${have:-(none)}, not $want: pin the version it carries in" \
         "scripts/prometheus-versions.env (and the README's proven versions) after running the tests on it" >&2
    exit 1
  fi
  (cd "$tmp/debs" && apt-get "${apt_opts[@]}" -qq download "$pkg=$have")
done
for deb in "$tmp"/debs/*.deb; do dpkg -x "$deb" "$tmp/root"; done
cp "$tmp/root/usr/bin/prometheus" "$tmp/root/usr/bin/promtool" "$stage/bin/"
for bin in "$stage"/bin/*; do
  reports_version "$bin" || { echo "$bin does not run or is not $want: $("$bin" --version 2>&1 | head -1)" >&2; exit 1; }
done
echo "$have" > "$stage/VERSION"
rm -rf "$dir"
mv "$stage" "$dir"
echo "Prometheus $have unpacked in $dir" >&2
