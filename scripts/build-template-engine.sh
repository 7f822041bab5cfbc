#!/usr/bin/env bash
# Builds the body-transform engine (src/gateway/template/engine: Go's text/template + sprig v3) twice from the same
# code: to WebAssembly (template-engine.wasm: GOOS=wasip1, a reactor module with exported functions; the gateway
# parses templates with it at API load) and natively for this machine (template-engine: a process the gateway runs
# templates in, several times faster than WebAssembly). Both are cached OUTSIDE the clone, in one directory keyed by
# a hash of every input that changes the result: the module's go.mod, go.sum and *.go, this script, the Go version
# and the native target (GOOS/GOARCH). A second run with the same inputs does nothing and answers at once. `current`
# beside the builds links the last one built, which is where the gateway looks when GW_TEMPLATE_ENGINE is not set
# (src/gateway/template/artefact.ts; the native binary is looked for beside the .wasm).
#
# Prints progress on stderr; its LAST line on stdout is the path of template-engine.wasm.
#
# Environment (all optional): GW_CACHE_DIR, GW_BUILD_QUIET (scripts/lib/go-artefact-cache.sh).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
module="$repo/src/gateway/template/engine"
# shellcheck source=lib/go-artefact-cache.sh
. "$repo/scripts/lib/go-artefact-cache.sh"   # cache_root, say, require_go, publish_build

require_go 24 "the template engine (go:wasmexport)"

key=$( { cat "$module/go.mod" "$module/go.sum" "$module"/*.go "$repo/scripts/build-template-engine.sh"; go version; go env GOOS GOARCH; } | sha256sum | cut -c1-16)
builds="$cache_root/template-engine"
out="$builds/$key"
if [ -f "$out/template-engine.wasm" ] && [ -f "$out/template-engine" ]; then
  ln -sfn "$key" "$builds/current"
  say "template engine: cached in $out"
  echo "$out/template-engine.wasm"
  exit 0
fi

tmp="$out.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

started=$(date +%s)
cd "$module"
say "building the template engine (text/template + sprig v3 -> wasip1; cold: ~1 min on 2 cores; cached afterwards in $builds)"
say "  downloading modules ..."
go mod download
say "  compiling $(GOOS=wasip1 GOARCH=wasm go list -deps . | wc -l) packages ..."
GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 go build -buildmode=c-shared -trimpath -buildvcs=false -ldflags '-s -w' \
  -o "$tmp/template-engine.wasm" .
say "  compiling the native engine ($(go env GOOS)/$(go env GOARCH)) ..."
CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags '-s -w' -o "$tmp/template-engine" .
finished=$(date +%s)
cat > "$tmp/build.json" <<JSON
{"go": "$(go env GOVERSION)", "seconds": $((finished - started)), "bytes": $(stat -c %s "$tmp/template-engine.wasm"), "nativeBytes": $(stat -c %s "$tmp/template-engine"), "builtAt": "$(date -u +%FT%TZ)"}
JSON
publish_build "$tmp" "$out"
trap - EXIT
ln -sfn "$key" "$builds/current"
say "built in $((finished - started)) s ($(stat -c %s "$out/template-engine.wasm") bytes): $out"
echo "$out/template-engine.wasm"
