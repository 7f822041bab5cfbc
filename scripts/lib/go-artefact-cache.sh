# shellcheck shell=bash
# Shared by the scripts that build a Go artefact and cache it OUTSIDE the clone, keyed by a hash of its inputs
# (build-controlplane.sh, build-node.sh, build-template-engine.sh): where the cache lives, progress lines, the Go
# check, `go build -v` progress, and the atomic publish of a finished build. Sourced, never run; it decides nothing
# about what is built or how.
#
# Environment (all optional):
#   GW_CACHE_DIR      cache root        default ${XDG_CACHE_HOME:-$HOME/.cache}/gw
#   GW_BUILD_QUIET=1  no progress lines

cache_root=${GW_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gw}

# Progress on stderr (stdout carries only the artefact's path).
say() { [ "${GW_BUILD_QUIET:-}" = 1 ] || printf '%s\n' "$*" >&2; }

# require_go MIN_MINOR WHAT: exits with a message naming WHAT unless Go 1.MIN_MINOR or newer is on PATH.
require_go() {
  command -v go >/dev/null || { echo "$(basename "$0"): Go >= 1.$1 is required to build $2; install it" >&2; exit 1; }
  local minor
  minor=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
  [ "$minor" -ge "$1" ] || { echo "$(basename "$0"): Go >= 1.$1 is required to build $2 (found $(go env GOVERSION))" >&2; exit 1; }
}

# go_build_progress TOTAL: filters `go build -v` output (stdin), which names each package as it is compiled, into a
# progress line on stderr every 5 % of TOTAL packages; any other line (a compiler error) is passed on to stderr and
# makes it exit 1.
go_build_progress() {
  awk -v total="$1" -v quiet="${GW_BUILD_QUIET:-}" '
    /^(#|[a-z0-9.-]+\.[a-z]+\/|[a-z]+\/?)/ && !/: / { n++; p = int(100 * n / total); if (p >= next_p && quiet != "1") { printf "  [%3d%%] %d/%d %s\n", p, n, total, $0 > "/dev/stderr"; next_p = p + 5 } next }
    { print > "/dev/stderr"; failed = 1 }
    END { exit failed }'
}

# publish_build PARTIAL_DIR OUT_DIR: replaces OUT_DIR by the finished build in one rename, so a reader never sees
# half an artefact and an interrupted build leaves no cache entry.
publish_build() {
  rm -rf "$2"
  mv "$1" "$2"
}
