#!/usr/bin/env bash
# Headless tests of the Neovim plugin against a live pickerd.
# Called by `make test` with PICKER_BIN_DIR set to the directory holding pickerd and pickerctl.
# Needs nvim (0.7 or newer): scripts/install-deps.sh installs it (make test runs that first).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="${PICKER_BIN_DIR:-$repo/.build/debug}"
pickerd="$bin/pickerd"
pickerctl="$bin/pickerctl"

for b in "$pickerd" "$pickerctl"; do
    [ -x "$b" ] || { echo "nvim tests: $b not found; build first (swift build) or set PICKER_BIN_DIR" >&2; exit 1; }
done

if ! command -v nvim >/dev/null 2>&1; then
    # A missing tool is a failure, not a skip: a green `make test` must mean the plugin was tested.
    echo "nvim tests: FAILED: nvim is not installed; run scripts/install-deps.sh (as root) or" \
         "apt-get install --no-install-recommends neovim" >&2
    exit 1
fi

ver="$(nvim --version | head -n1)"
echo "nvim tests: $ver"
if ! nvim --headless -u NONE -i NONE -c 'if !has("nvim-0.7") | cquit 1 | endif' -c 'qall!' >/dev/null 2>&1; then
    echo "nvim tests: Neovim 0.7 or newer is needed ($ver)" >&2
    exit 1
fi

# The plugin speaks the socket itself: no processes on the request path.
if grep -rnE 'uv\.spawn|jobstart|vim\.fn\.system|io\.popen|os\.execute|termopen' "$here/lua"; then
    echo "nvim tests: FAILED: lua/ starts processes (above); requests go over the socket" >&2
    exit 1
fi
echo "ok   lua/ starts no processes (no uv.spawn, jobstart, system, popen)"

nvim_run() { # FILE: runs a test file in a headless nvim with the plugin on the runtimepath
    timeout 120 nvim --headless -u NONE --noplugin -i NONE -n \
        --cmd "set rtp^=$here" -c "luafile $1" </dev/null
}
export PICKER_TEST_DIR="$here/tests" PICKER_TEST_PROTOCOL_MD="$repo/docs/PROTOCOL.md"

# The codec against every vector of PROTOCOL.md, and the pieces that need no daemon.
for t in wire_test unit_test names_test; do
    if ! nvim_run "$here/tests/$t.lua"; then
        echo "nvim tests: FAILED ($t)" >&2
        exit 1
    fi
done

tmp="$(mktemp -d /tmp/pknv.XXXXXX)"
daemon_pid=""
cleanup() {
    if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then
        kill -TERM "$daemon_pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$daemon_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$daemon_pid" 2>/dev/null || true
        wait "$daemon_pid" 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$tmp/lib/Landscapes" "$tmp/lib/Portraits" "$tmp/state" "$tmp/cache"
cp "$repo"/samples/library/Landscapes/Landscape_{1,6,8}.jpg "$tmp/lib/Landscapes/"
cp "$repo"/samples/library/Portraits/hopper_{orientation_6,reference}.webp "$tmp/lib/Portraits/"
lib="$(realpath "$tmp/lib")"
sock="$tmp/s"

XDG_CACHE_HOME="$tmp/cache" "$pickerd" --library "$lib" --socket "$sock" --state-dir "$tmp/state" \
    2>"$tmp/pickerd.log" &
daemon_pid=$!

up=""
for _ in $(seq 100); do
    if "$pickerctl" --socket "$sock" ping >/dev/null 2>&1 && "$pickerctl" --socket "$sock" library --wait >/dev/null 2>&1; then up=1; break; fi
    kill -0 "$daemon_pid" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$up" ]; then
    echo "nvim tests: pickerd did not come up; its log:" >&2
    cat "$tmp/pickerd.log" >&2
    exit 1
fi

session=nvim-test
rc=0
PICKER_TEST_PICKERCTL="$pickerctl" PICKER_TEST_SOCKET="$sock" PICKER_TEST_LIBRARY="$lib" \
PICKER_TEST_SESSION="$session" XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state" \
XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" \
    nvim_run "$here/tests/live_tests.lua" || rc=$?
if [ "$rc" -ne 0 ]; then
    echo "nvim tests: FAILED (nvim exited with $rc); pickerd log:" >&2
    tail -n 20 "$tmp/pickerd.log" >&2
    exit 1
fi

# The picks made in nvim reached the daemon, in pick order.
sel="$("$pickerctl" --socket "$sock" --session "$session" --json selection)"
got="$(grep -o '"absolute_path":"[^"]*"' <<<"$sel" | sed 's/^"absolute_path":"//; s/"$//')"
want="$lib/Landscapes/Landscape_1.jpg
$lib/Landscapes/Landscape_8.jpg
$lib/Portraits/hopper_reference.webp"
if [ "$got" != "$want" ]; then
    echo "nvim tests: FAILED: the daemon's selection is not the picks made in nvim" >&2
    echo "want:" >&2; echo "$want" >&2
    echo "got:" >&2; echo "$sel" >&2
    exit 1
fi
echo "ok   pickerctl selection --json shows the picks made in nvim"
echo "nvim tests: passed"
