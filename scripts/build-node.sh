#!/usr/bin/env bash
# Builds the local Kubernetes NODE binaries (test/controlplane/node: kubelet, kube-proxy and kube-scheduler as one
# multi-call binary, plus the tiny pause binary of the pod sandbox image) and caches them OUTSIDE the clone, keyed by
# a hash of every input that changes the result (that module's go.mod/go.sum/*.go, the recipe below, the Go
# version). A second run with the same inputs does nothing and answers at once. It never touches the control plane's
# module or cache entry (scripts/build-controlplane.sh): the two are separate binaries with separate keys.
#
# Prints progress on stderr; its LAST line on stdout is the directory holding kube-node (the multi-call binary),
# its kubelet, kube-proxy and kube-scheduler links, and pause.
#
# Environment (all optional):
#   GW_CACHE_DIR      cache root                       default ${XDG_CACHE_HOME:-$HOME/.cache}/gw
#   GW_BUILD_QUIET=1  no progress lines
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
module="$repo/test/controlplane/node"
# shellcheck source=lib/go-artefact-cache.sh
. "$repo/scripts/lib/go-artefact-cache.sh"   # cache_root, say, require_go, go_build_progress, publish_build

require_go 25 "the local node (kubelet, kube-proxy, kube-scheduler)"

# shellcheck source=/dev/null
. "$repo/test/controlplane/versions.env"   # KUBE_VERSION

# Everything about HOW the binaries are built. Bump it with any change to the flags below.
RECIPE='node: CGO_ENABLED=0 go build -trimpath -buildvcs=false, ldflags -s -w + component-base/version (gitVersion gitMajor gitMinor gitTreeState=clean); pause: CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "-s -w"'
key=$( { cat "$module/go.mod" "$module/go.sum" "$module/main.go" "$module/pause/main.go"; echo "$RECIPE"; go version; } | sha256sum | cut -c1-16)
out="$cache_root/node/$key"
if [ -x "$out/kube-node" ] && [ -x "$out/pause" ] && [ -L "$out/kubelet" ]; then
  say "node v$KUBE_VERSION: cached in $out"
  echo "$out"
  exit 0
fi

tmp="$out.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

started=$(date +%s)
minor=${KUBE_VERSION#*.}; minor=${minor%%.*}
ldflags="-s -w
  -X k8s.io/component-base/version.gitVersion=v$KUBE_VERSION
  -X k8s.io/component-base/version.gitMajor=1
  -X k8s.io/component-base/version.gitMinor=$minor
  -X k8s.io/component-base/version.gitTreeState=clean"

cd "$module"
say "building the node: kubelet, kube-proxy, kube-scheduler v$KUBE_VERSION (~2 min on 2 cores after the control plane's build, whose Go build cache it shares; cached afterwards in $cache_root)"
go mod download
total=$(go list -deps . | wc -l)
say "  compiling $total packages ..."
CGO_ENABLED=0 go build -trimpath -buildvcs=false -v -ldflags "$ldflags" -o "$tmp/kube-node" . 2>&1 |
  go_build_progress "$total"
CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "-s -w" -o "$tmp/pause" ./pause
for name in kubelet kube-proxy kube-scheduler; do ln -s kube-node "$tmp/$name"; done
finished=$(date +%s)
cat > "$tmp/build.json" <<JSON
{"kubernetes": "v$KUBE_VERSION", "go": "$(go env GOVERSION)", "totalSeconds": $((finished - started)), "binaryBytes": $(stat -c %s "$tmp/kube-node")}
JSON
publish_build "$tmp" "$out"
trap - EXIT
say "built in $((finished - started)) s: $out"
echo "$out"
