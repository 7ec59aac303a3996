#!/usr/bin/env bash
# Runs the Python client's tests against a live pickerd of its own.
#
# Called by `make test` with PICKER_BIN_DIR set to the built binaries (pickerd, pickerctl).
# Starts pickerd on a temporary socket, library, state dir and cache; runs
# clients/python/tests with /usr/bin/python3 (unittest, standard library only); stops the
# daemon with SIGTERM and removes everything on every path; exits non-zero on failure.
#
#   PICKER_BIN_DIR=$(swift build --show-bin-path) clients/python/run-tests.sh [unittest args]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin_dir="${PICKER_BIN_DIR:-}"
if [[ -z "$bin_dir" ]]; then
    bin_dir="$(cd "$repo" && { swift build --show-bin-path 2>/dev/null || true; })"
fi
# Every tool the tests use must be here: a missing one fails the run (the tests would
# otherwise skip themselves and `make test` would be green having tested nothing).
for tool in pickerd pickerctl; do
    if [[ ! -x "$bin_dir/$tool" ]]; then
        echo "run-tests.sh: no $tool in PICKER_BIN_DIR='$bin_dir' (build first: swift build)" >&2
        exit 2
    fi
done
python="${PYTHON:-/usr/bin/python3}"
if [[ ! -x "$python" ]]; then
    python="$(command -v python3 || true)"
fi
if [[ -z "$python" ]] || ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)'; then
    echo "run-tests.sh: no Python 3.9 or newer (${PYTHON:-/usr/bin/python3}, python3 on PATH);" \
         "run scripts/install-deps.sh (as root)" >&2
    exit 2
fi

# Short path: sun_path holds at most 107 bytes.
tmp="$(mktemp -d /tmp/pkpy.XXXXXX)"
daemon_pid=""
test_pid=""
cleanup() {
    local rc=$?
    if [[ -n "$test_pid" ]] && kill -0 "$test_pid" 2>/dev/null; then
        kill -TERM "$test_pid" 2>/dev/null || true
        wait "$test_pid" 2>/dev/null || true
    fi
    if [[ -n "$daemon_pid" ]] && kill -0 "$daemon_pid" 2>/dev/null; then
        kill -TERM "$daemon_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do
            kill -0 "$daemon_pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$daemon_pid" 2>/dev/null; then
            echo "run-tests.sh: pickerd did not stop on SIGTERM; killing it" >&2
            kill -KILL "$daemon_pid" 2>/dev/null || true
            rc=1
        fi
        wait "$daemon_pid" 2>/dev/null || true
    fi
    if [[ $rc -ne 0 && -s "$tmp/pickerd.log" ]]; then
        echo "--- last lines of the pickerd log:" >&2
        tail -n 30 "$tmp/pickerd.log" >&2 || true
    fi
    rm -rf "$tmp"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A small library: a few photos in three albums.
lib="$tmp/lib"
mkdir -p "$lib"
copy_some() {  # copy_some ALBUM FILE...: the files that exist
    local album="$1"; shift
    local f copied=0
    for f in "$@"; do
        if [[ -f "$f" ]]; then
            mkdir -p "$lib/$album"
            cp "$f" "$lib/$album/"
            chmod u+w "$lib/$album/$(basename "$f")"
            copied=$((copied + 1))
        fi
    done
    [[ $copied -gt 0 ]]
}
# The corpus as every suite finds it: PICKER_TESTDATA, ../shared/testdata, Tests/Fixtures.
td="$(python3 "$repo/scripts/testcorpus.py")"
echo "[corpus] python client: $(python3 "$repo/scripts/testcorpus.py" --describe)"
eo="$td/exif-orientation"
if ! copy_some Landscapes "$eo/Landscape_1.jpg" "$eo/Landscape_3.jpg" "$eo/Landscape_6.jpg" "$eo/Landscape_8.jpg"; then
    echo "run-tests.sh: no Landscape photos in $td/exif-orientation" >&2
    exit 2
fi
copy_some Hopper "$eo"/hopper_*.webp || true
# The fixtures hold one camera photo (Canon); the full corpus also the Nikon.
copy_some Camera "$td/camera-photos/Nikon_D90_12mp.jpg" \
    || copy_some Camera "$td/camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg" || true

mkdir -p "$tmp/state" "$tmp/cache"
sock="$tmp/s.sock"
export XDG_CACHE_HOME="$tmp/cache"
export PICKER_SOCKET="$sock"
export PICKER_BIN_DIR="$bin_dir"
export PYTHONDONTWRITEBYTECODE=1  # leave no __pycache__ in the repository
cd "$here"
"$bin_dir/pickerd" --library "$lib" --socket "$sock" --state-dir "$tmp/state" --cache-mb 64 \
    >"$tmp/pickerd.log" 2>&1 &
daemon_pid=$!

# Wait until it answers and has scanned the library, at most 20 s.
if ! "$python" - "$sock" "$daemon_pid" <<'PY'
import os, sys, time
sys.path.insert(0, os.getcwd())
import pickerd_client as pc
sock, pid = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit("run-tests.sh: pickerd exited at startup")
    try:
        with pc.Client(sock, timeout=5, client_name="run-tests.sh") as c:
            if c.library().ready:
                sys.exit(0)
    except (pc.PickerError, OSError, TimeoutError):
        pass
    time.sleep(0.1)
sys.exit("run-tests.sh: pickerd did not become ready on %s within 20 s" % sock)
PY
then
    exit 1
fi

# In the background, so that a SIGTERM/SIGINT to this script runs the cleanup at once.
# -v: each skip is printed with its reason (make test's summary lists them).
"$python" -m unittest discover -v -s tests -p 'test_*.py' "$@" &
test_pid=$!
wait "$test_pid"
