#!/usr/bin/env bash
# A short pick session against samples/library (run by `make demo`):
# start pickerd on a temporary socket, pick a photo with pickerctl, write
# out.png in the repository root, stop the daemon with SIGTERM.
#
# Binaries come from $PICKER_BIN_DIR (default .build/release). Exits non-zero
# on any failure; the daemon is stopped and the temporary folder removed on
# every path.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

bin_dir=${PICKER_BIN_DIR:-$repo/.build/release}
pickerd=$bin_dir/pickerd
pickerctl=$bin_dir/pickerctl
library=$repo/samples/library
out=out.png

for b in "$pickerd" "$pickerctl"; do
    if [[ ! -x $b ]]; then
        echo "demo: $b not found; build first (make build)" >&2
        exit 1
    fi
done

# Short fixed prefix: a socket path must fit in sun_path (107 bytes).
tmp=$(mktemp -d /tmp/pickerd-demo.XXXXXX)
sock=$tmp/pickerd.sock
log=$tmp/pickerd.log
daemon_pid=

cleanup() {
    local status=$?
    if [[ -n $daemon_pid ]] && kill -0 "$daemon_pid" 2>/dev/null; then
        kill -TERM "$daemon_pid" 2>/dev/null || true
        for _ in $(seq 50); do
            kill -0 "$daemon_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$daemon_pid" 2>/dev/null || true
        wait "$daemon_pid" 2>/dev/null || true
    fi
    if [[ $status -ne 0 ]]; then
        if [[ -s $log ]]; then
            echo "demo: last lines of the pickerd log:" >&2
            tail -n 20 "$log" >&2
        fi
        echo "demo: FAILED" >&2
    fi
    rm -rf "$tmp"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
    echo "demo: $*" >&2
    exit 1
}

# Print the command as a user would type it, then run it.
ctl() {
    printf '$ pickerctl --socket "$SOCK"'
    printf ' %q' "$@"
    printf '\n'
    "$pickerctl" --socket "$sock" "$@"
}

echo "SOCK=$sock"
echo "\$ pickerd --library samples/library --socket \"\$SOCK\" 2>pickerd.log &"
# The daemon gets its own HOME and XDG folders, so the saved sessions of this
# run neither see nor touch the user's own.
mkdir -p "$tmp/home" "$tmp/state" "$tmp/data" "$tmp/cache" "$tmp/config"
env -u PICKER_SOCKET -u PICKER_LIBRARY -u PICKER_SESSION \
    HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp" XDG_STATE_HOME="$tmp/state" \
    XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" \
    "$pickerd" --library "$library" --socket "$sock" >"$log" 2>&1 &
daemon_pid=$!

# Wait up to 10 s for the daemon to answer.
ready=0
for _ in $(seq 100); do
    kill -0 "$daemon_pid" 2>/dev/null || fail "pickerd exited during start-up"
    if "$pickerctl" --socket "$sock" ping >/dev/null 2>&1; then
        ready=1
        break
    fi
    sleep 0.1
done
[[ $ready -eq 1 ]] || fail "pickerd did not answer a ping within 10 s"

ctl ping
ctl session new demo --width 600 --height 400
ctl --session demo albums
ctl --session demo select-album --index 2
ctl --session demo photos
ctl --session demo select-photo --index 1
ctl --session demo status
ctl --session demo next
ctl --session demo status
rm -f "$out"
ctl --session demo -o "$out" get-image

# Stop the daemon: SIGTERM must make it exit 0 (SPEC).
echo "\$ kill -TERM <pickerd>"
kill -TERM "$daemon_pid"
for _ in $(seq 100); do
    kill -0 "$daemon_pid" 2>/dev/null || break
    sleep 0.1
done
kill -0 "$daemon_pid" 2>/dev/null && fail "pickerd still running 10 s after SIGTERM"
status=0
wait "$daemon_pid" || status=$?
daemon_pid=
[[ $status -eq 0 ]] || fail "pickerd exited with status $status after SIGTERM"
[[ ! -e $sock ]] || fail "pickerd left its socket behind"

# Check the picture: PNG signature, IHDR size within the 600x400 pane.
[[ -s $out ]] || fail "$out was not written"
signature=$(head -c 8 "$out" | od -An -tx1 | tr -d ' \n')
[[ $signature == 89504e470d0a1a0a ]] || fail "$out is not a PNG (starts with $signature)"
read -r -a ihdr <<<"$(od -An -tu1 -j16 -N8 "$out")"
[[ ${#ihdr[@]} -eq 8 ]] || fail "$out has no IHDR"
width=$(( (ihdr[0] << 24) | (ihdr[1] << 16) | (ihdr[2] << 8) | ihdr[3] ))
height=$(( (ihdr[4] << 24) | (ihdr[5] << 16) | (ihdr[6] << 8) | ihdr[7] ))
(( width >= 1 && width <= 600 && height >= 1 && height <= 400 )) \
    || fail "$out is ${width}x${height}, which does not fit the 600x400 pane"
echo "demo: wrote $out: PNG ${width}x${height}, $(stat -c %s "$out") bytes"
