#!/usr/bin/env bash
# Runs every fuzz target (or those named as arguments) for FUZZ_SECONDS each (default 60),
# FUZZ_JOBS at a time (default 1), on fuzz/corpus/<target> (grown in place) plus the checked-in
# fuzz/regressions/<target> (read only). Crashes, leaks,
# timeouts and out-of-memory inputs land in fuzz/artifacts/<target>/; the script exits 1 if any
# target found one. Logs: fuzz/logs/<target>.log (the last lines carry libFuzzer's final stats).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_JOBS:-1}"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(frame message header jpeg png webp heif gif jxl image raw library pngtext sessions journal handshake decodermsg)
mkdir -p "$here/logs"

max_len() {
    case "$1" in
        frame|message|handshake|sessions|journal) echo 65536 ;;
        decodermsg) echo 4096 ;;
        pngtext) echo 16384 ;;
        header) echo 131072 ;;
        *) echo 524288 ;;
    esac
}

run_one() {
    local t="$1" bin="$here/build/fuzz_$1"
    [ -x "$bin" ] || { echo "fuzz: $bin missing (run fuzz/build.sh)" >&2; return 2; }
    mkdir -p "$here/corpus/$t" "$here/artifacts/$t"
    local dict=()
    [ -f "$here/dict/$t.dict" ] && dict=(-dict="$here/dict/$t.dict")
    local seeds=()
    [ -d "$here/regressions/$t" ] && seeds=("$here/regressions/$t")
    # -rss_limit_mb: the pixel cap in the C targets keeps decodes far below it; a leak or a
    # bomb that gets through shows up as an OOM artifact. -timeout: one input over 10 s is a hang.
    local started=$SECONDS
    # PICKERD_LOG_LEVEL=fault: the engine logs every dropped session entry at error level.
    PICKERD_LOG_LEVEL=fault ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}" \
    "$bin" "$here/corpus/$t" "${seeds[@]}" "${dict[@]}" -max_total_time="$seconds" -max_len="$(max_len "$t")" \
        -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
        -artifact_prefix="$here/artifacts/$t/" >"$here/logs/$t.log" 2>&1
    local rc=$?
    local took=$((SECONDS - started))
    local execs cov
    execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$here/logs/$t.log" | grep -o '[0-9]*$' | tail -1)"
    cov="$(grep -oE '(cov|ft): [0-9]+' "$here/logs/$t.log" | tail -2 | tr '\n' ' ')"
    printf 'fuzz: %-8s %ss  rc=%s  execs=%s  %s corpus=%s files\n' "$t" "$took" "$rc" "${execs:-?}" "$cov" \
        "$(ls "$here/corpus/$t" | wc -l)"
    return $rc
}

status=0
pids=()
for t in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
    run_one "$t" &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
found=$(find "$here/artifacts" -type f 2>/dev/null | wc -l)
if [ "$found" -gt 0 ]; then
    echo "fuzz: $found artifact(s) in $here/artifacts:" >&2
    find "$here/artifacts" -type f >&2
    status=1
fi
exit $status
