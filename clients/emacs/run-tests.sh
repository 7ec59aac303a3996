#!/usr/bin/env bash
# Runs the Emacs package's ERT tests (emacs --batch) against a live pickerd of its own.
#
# Called by `make test` with PICKER_BIN_DIR set to the built binaries (pickerd, pickerctl).
# Starts pickerd on a temporary socket, library, state dir and cache; runs tests/*-test.el;
# stops the daemon with SIGTERM and removes everything on every path; exits non-zero on failure.
#
#   PICKER_BIN_DIR=$(swift build --show-bin-path) clients/emacs/run-tests.sh [ERT selector]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin_dir="${PICKER_BIN_DIR:-}"
if [[ -z "$bin_dir" ]]; then
    bin_dir="$(cd "$repo" && { swift build --show-bin-path 2>/dev/null || true; })"
fi
# A missing tool fails the run: the suite must not be green having tested nothing.
for tool in pickerd pickerctl; do
    if [[ ! -x "$bin_dir/$tool" ]]; then
        echo "run-tests.sh: no $tool in PICKER_BIN_DIR='$bin_dir' (build first: swift build)" >&2
        exit 2
    fi
done
emacs="${EMACS:-emacs}"
if ! command -v "$emacs" >/dev/null; then
    echo "run-tests.sh: no emacs; run scripts/install-deps.sh (as root) to install emacs-lucid" >&2
    exit 2
fi

tmp="$(mktemp -d /tmp/pkel.XXXXXX)"  # short: sun_path holds at most 107 bytes
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

# A small library: two folder albums of the corpus's orientation photos.
td="$(python3 "$repo/scripts/testcorpus.py")"
echo "[corpus] emacs client: $(python3 "$repo/scripts/testcorpus.py" --describe)"
eo="$td/exif-orientation"
lib="$tmp/lib"
mkdir -p "$lib/Landscapes" "$lib/More"
for f in "$eo"/Landscape_1.jpg "$eo"/Landscape_3.jpg "$eo"/Landscape_6.jpg; do
    if [[ -f "$f" ]]; then cp "$f" "$lib/Landscapes/"; fi
done
for f in "$eo"/Landscape_8.jpg "$eo"/hopper_*.webp; do
    if [[ -f "$f" ]]; then cp "$f" "$lib/More/"; fi
done
chmod -R u+w "$lib"
if [[ $(find "$lib" -type f | wc -l) -lt 3 ]]; then
    echo "run-tests.sh: too few photos in $eo" >&2
    exit 2
fi

mkdir -p "$tmp/state" "$tmp/cache" "$tmp/tmp"
sock="$tmp/s.sock"
export XDG_CACHE_HOME="$tmp/cache"
# Emacs' native compiler writes its work files (emacs-async-comp-*, libgccjit-*) into TMPDIR from
# the interactive `emacs -nw` of the tty test: keep them in this run's folder, removed at the end.
export TMPDIR="$tmp/tmp"
export PICKER_SOCKET="$sock"
export PICKER_BIN_DIR="$bin_dir"
"$bin_dir/pickerd" --library "$lib" --socket "$sock" --state-dir "$tmp/state" --cache-mb 64 \
    >"$tmp/pickerd.log" 2>&1 &
daemon_pid=$!

# Wait until it answers (at most 20 s), then until the first scan is done.
for _ in $(seq 1 200); do
    kill -0 "$daemon_pid" 2>/dev/null || { echo "run-tests.sh: pickerd exited at startup" >&2; exit 1; }
    "$bin_dir/pickerctl" --socket "$sock" ping >/dev/null 2>&1 && break
    sleep 0.1
done
"$bin_dir/pickerctl" --socket "$sock" library --wait >/dev/null

# Every file of the package byte-compiles without a warning (the .elc go to the temp folder),
# each in a fresh Emacs.
for el in "$here"/pickerd*.el; do
    name="$(basename "$el" .el)"
    "$emacs" --batch -Q -L "$here" --eval "(progn (require (quote bytecomp)) (setq byte-compile-error-on-warn t)
  (let ((byte-compile-dest-file-function (lambda (_) \"$tmp/$name.elc\")))
    (unless (byte-compile-file \"$el\") (kill-emacs 1))))"
done

selector="${1:-t}"
# In the background, so that a SIGTERM/SIGINT to this script runs the cleanup at once.
# Every test file (tests/*-test.el: the codec, the calls, the picker) in one Emacs.
load_tests=()
for t in "$here"/tests/*-test.el; do load_tests+=(-l "$t"); done
"$emacs" --batch -Q -L "$here" -L "$here/tests" "${load_tests[@]}" \
    --eval "(ert-run-tests-batch-and-exit '$selector)" > >(tee "$tmp/ert.log") 2>&1 &
test_pid=$!
status=0
wait "$test_pid" || status=$?
# ERT reports skips in lower case; make test's summary lists lines that say SKIPPED.
grep -E '^ +skipped ' "$tmp/ert.log" | sed 's/^ *skipped */SKIPPED (ERT): /' || true
exit "$status"
