#!/usr/bin/env bash
# Builds the Go gRPC plugin server the tests of gRPC plugins run (test/support/grpc-plugin: Tyk's coprocess
# Dispatcher, compiling src/gateway/plugins/grpc/coprocess.proto at start). Cached OUTSIDE the clone, keyed by a hash
# of its inputs (the module's go.mod, go.sum and *.go, this script, the Go version and GOOS/GOARCH); a second run with
# the same inputs does nothing and answers at once.
#
# Prints progress on stderr; its LAST line on stdout is the path of the binary.
#
# Environment (all optional): GW_CACHE_DIR, GW_BUILD_QUIET (scripts/lib/go-artefact-cache.sh).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
module="$repo/test/support/grpc-plugin"
# shellcheck source=lib/go-artefact-cache.sh
. "$repo/scripts/lib/go-artefact-cache.sh"   # cache_root, say, require_go, publish_build

require_go 25 "the test gRPC plugin server"

key=$( { cat "$module/go.mod" "$module/go.sum" "$module"/*.go "$repo/scripts/build-grpc-plugin.sh"; go version; go env GOOS GOARCH; } | sha256sum | cut -c1-16)
builds="$cache_root/grpc-plugin"
out="$builds/$key"
if [ -f "$out/grpc-plugin" ]; then
  say "gRPC plugin server: cached in $out"
  echo "$out/grpc-plugin"
  exit 0
fi

tmp="$out.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

started=$(date +%s)
cd "$module"
say "building the test gRPC plugin server (grpc-go + protocompile; cached afterwards in $builds)"
go mod download
CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags '-s -w' -o "$tmp/grpc-plugin" .
publish_build "$tmp" "$out"
trap - EXIT
say "built in $(($(date +%s) - started)) s: $out"
echo "$out/grpc-plugin"
