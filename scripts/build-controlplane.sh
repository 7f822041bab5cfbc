#!/usr/bin/env bash
# Builds the local Kubernetes control plane (test/controlplane: etcd, kube-apiserver, kube-controller-manager and
# kubectl as one multi-call binary) and helm, and caches them OUTSIDE the clone, keyed by a hash of every input
# that changes the result (the module's go.mod/go.sum/main.go, the build recipe below, the Go version, the helm
# version). A second run with the same inputs does nothing and answers at once. Editing this script's comments or
# progress output does not rebuild; changing RECIPE (flags) does.
#
# Prints progress on stderr; its LAST line on stdout is the directory holding kubectl, helm and the components.
#
# Environment (all optional):
#   GW_CACHE_DIR      cache root                       default ${XDG_CACHE_HOME:-$HOME/.cache}/gw
#   HELM_VERSION      helm release to go install       default v3.22.0
#   GW_BUILD_QUIET=1  no progress lines
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
module="$repo/test/controlplane"
HELM_VERSION=${HELM_VERSION:-v3.22.0}
# How long a cold build takes, measured (788 s on 2 idle cores; about 18 minutes beside 8 other builds and test
# runs). Printed only when a build runs; the README quotes it word for word (test/integration/gw-up-build-time.test.ts).
COLD_BUILD_TIME='about 13 minutes on 2 cores, up to 18 on a busy machine'
# shellcheck source=lib/go-artefact-cache.sh
. "$repo/scripts/lib/go-artefact-cache.sh"   # cache_root, say, require_go, go_build_progress, publish_build

require_go 25 "the local control plane (or point GW_TEST_KUBECONFIG at an existing cluster)"

# shellcheck source=/dev/null
. "$module/versions.env"   # KUBE_VERSION, ETCD_VERSION: written by gen-gomod.sh with go.mod

# Everything about HOW the binaries are built. Bump it with any change to the flags below.
RECIPE='controlplane: CGO_ENABLED=0 go build -trimpath -buildvcs=false, ldflags -s -w + component-base/version (gitVersion gitMajor gitMinor gitTreeState=clean buildDate); helm: CGO_ENABLED=0 go install -trimpath, ldflags -s -w + internal/version.version + chartutil and lint/rules k8sVersionMajor/Minor'
key=$( { cat "$module/go.mod" "$module/go.sum" "$module/main.go"; echo "$RECIPE"; go version; echo "$HELM_VERSION"; } | sha256sum | cut -c1-16)
out="$cache_root/controlplane/$key"
if [ -x "$out/controlplane" ] && [ -x "$out/helm" ] && [ -L "$out/kubectl" ]; then
  say "control plane v$KUBE_VERSION: cached in $out"
  echo "$out"
  exit 0
fi

tmp="$out.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"; [ -n "${sampler:-}" ] && kill "$sampler" 2>/dev/null || true' EXIT

# Peak memory, sampled every second: the summed RSS of the Go toolchain's processes (go, compile, link, asm; RSS
# counts the linker's file-backed mappings too) and how far the machine's MemAvailable fell below its level before
# the build (anonymous memory only). Both are reported; neither is exact at a 1 s sampling rate.
mem_avail() { awk '/^MemAvailable:/{print $2}' /proc/meminfo; }
toolchain_rss() { ps -C go,compile,link,asm,cgo -o rss= 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
baseline=$(mem_avail)
( lowest=$baseline; highest=0
  while sleep 1; do
    a=$(mem_avail); r=$(toolchain_rss)
    [ "$a" -lt "$lowest" ] && lowest=$a
    [ "$r" -gt "$highest" ] && highest=$r
    echo "$lowest $highest" > "$tmp/mem"
  done ) &
sampler=$!

started=$(date +%s)
build_date=$(date -u +%FT%TZ)
minor=${KUBE_VERSION#*.}; minor=${minor%%.*}
ldflags="-s -w
  -X k8s.io/component-base/version.gitVersion=v$KUBE_VERSION
  -X k8s.io/component-base/version.gitMajor=1
  -X k8s.io/component-base/version.gitMinor=$minor
  -X k8s.io/component-base/version.gitTreeState=clean
  -X k8s.io/component-base/version.buildDate=$build_date"

cd "$module"
say "building the control plane: Kubernetes v$KUBE_VERSION + etcd v$ETCD_VERSION (cold: $COLD_BUILD_TIME; cached afterwards in $cache_root)"
say "  downloading modules ..."
go mod download
total=$(go list -deps . | wc -l)
say "  compiling $total packages ..."
CGO_ENABLED=0 go build -trimpath -buildvcs=false -v -ldflags "$ldflags" -o "$tmp/controlplane" . 2>&1 |
  go_build_progress "$total"
for name in etcd kube-apiserver kube-controller-manager kubectl; do ln -s controlplane "$tmp/$name"; done
compiled=$(date +%s)

say "  building helm $HELM_VERSION ..."
helm_ldflags="-s -w
  -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION
  -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$minor
  -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$minor"
(cd "$tmp" && CGO_ENABLED=0 GOBIN="$tmp" GOFLAGS=-buildvcs=false go install -trimpath -ldflags "$helm_ldflags" "helm.sh/helm/v3/cmd/helm@$HELM_VERSION")
finished=$(date +%s)

kill "$sampler" 2>/dev/null || true; sampler=
lowest=$baseline; highest=0; [ -f "$tmp/mem" ] && read -r lowest highest < "$tmp/mem"
drawdown_mib=$(( (baseline - lowest) / 1024 ))
rss_mib=$(( highest / 1024 ))
cat > "$tmp/build.json" <<JSON
{"kubernetes": "v$KUBE_VERSION", "etcd": "v$ETCD_VERSION", "helm": "$HELM_VERSION", "go": "$(go env GOVERSION)",
 "controlplaneSeconds": $((compiled - started)), "helmSeconds": $((finished - compiled)), "totalSeconds": $((finished - started)),
 "peakToolchainRssMiB": $rss_mib, "peakMemAvailableDrawdownMiB": $drawdown_mib, "binaryBytes": $(stat -c %s "$tmp/controlplane"), "builtAt": "$build_date"}
JSON
rm -f "$tmp/mem"
publish_build "$tmp" "$out"
trap - EXIT
say "built in $((finished - started)) s (control plane $((compiled - started)) s, helm $((finished - compiled)) s); peak toolchain RSS ${rss_mib} MiB, MemAvailable fell by ${drawdown_mib} MiB: $out"
echo "$out"
