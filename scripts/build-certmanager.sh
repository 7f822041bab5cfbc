#!/usr/bin/env bash
# Builds the test cert-manager (test/certmanager: cert-manager's controller loops for self-signed Issuers and
# Certificates, and its CA injector, as one binary from the library module github.com/cert-manager/cert-manager,
# whose own binaries are not on the Go module proxy) and caches it OUTSIDE the clone with cert-manager's CRDs,
# keyed by a hash of every input that changes the result, like scripts/build-controlplane.sh. A second run with
# the same inputs answers at once. .ci/run builds it before the suites; test/e2e/install-cert-manager.test.ts, its
# only user, runs it too (at once when cached). Building takes several minutes of CPU.
#
#   scripts/build-certmanager.sh            build when needed; the LAST stdout line is the cache directory
#   scripts/build-certmanager.sh --cached   print the directory when cached, else exit 3 (never builds)
#
# Environment: GW_CACHE_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/gw).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
module="$repo/test/certmanager"
cache_root=${GW_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gw}
RECIPE='certmanager: CGO_ENABLED=0 go build -trimpath -buildvcs=false, ldflags -s -w; crds: deploy/crds of the required cert-manager module'

command -v go >/dev/null || { echo "build-certmanager: Go is required" >&2; exit 1; }
key=$( { cat "$module/go.mod" "$module/go.sum" "$module/main.go"; echo "$RECIPE"; go version; } | sha256sum | cut -c1-16)
out="$cache_root/certmanager/$key"
if [ -x "$out/certmanager" ] && [ -d "$out/crds" ]; then
  echo "$out"
  exit 0
fi
[ "${1:-}" = --cached ] && exit 3

tmp="$out.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp/crds"
trap 'rm -rf "$tmp"' EXIT
cd "$module"
echo "building the test cert-manager (several minutes on 2 cores) ..." >&2
CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "-s -w" -o "$tmp/certmanager" .
source_dir=$(go list -m -f '{{.Dir}}' github.com/cert-manager/cert-manager)
cp "$source_dir"/deploy/crds/cert-manager.io_*.yaml "$tmp/crds/"
chmod u+w "$tmp"/crds/*.yaml
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "$out"
