#!/usr/bin/env bash
# Issue 23: the decoder worker processes against decoding in the daemon, paired (farm-bench --vs).
# Two release daemons on one library of camera JPEGs: A sandboxed (the default), B --decode-in-process.
#   scripts/decoder-sandbox-bench.sh [BIN_DIR]     (default: .build/release; runs: RUNS=15)
# Prints farm-bench's tables for cold get-image (--no-cache), warm get-image (a cache hit) and a
# cold 3-cell grid (a fresh cell size each run), then each daemon's (and worker's) VmHWM after one
# cold get-image of the 22 MP JPEG from a fresh start.
set -euo pipefail
bin=${1:-.build/release}
runs=${RUNS:-15}
corpus=${PICKER_TESTDATA:-../shared/testdata}
[ -d "$corpus/camera-photos" ] || corpus=Tests/Fixtures
dir=$(mktemp -d /tmp/pk-sbench-XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
mkdir -p "$dir/lib/cam"
cp "$corpus"/camera-photos/*.jpg "$dir/lib/cam/"

start() {  # name, extra args...
    local name=$1; shift
    HOME=$dir/$name XDG_CACHE_HOME=$dir/$name/cache "$bin/pickerd" --library "$dir/lib" --socket "$dir/$name.sock" \
        --state-dir "$dir/$name/state" --workers 2 --no-prefetch --no-shared-thumbnails "$@" >"$dir/$name.log" 2>&1 &
    pids+=($!)
    eval "pid_$name=$!"
    for _ in $(seq 100); do [ -S "$dir/$name.sock" ] && break; sleep 0.1; done
    local c="$bin/pickerctl --socket $dir/$name.sock --session s"
    $c session new s --width 1280 --height 960 --exist-ok >/dev/null
    for _ in $(seq 100); do $c select-album cam >/dev/null 2>&1 && break; sleep 0.1; done
    $c select-photo --index 1 >/dev/null
}
ctl() { echo "$bin/pickerctl --socket $dir/$1.sock --session s"; }

start A
start B --decode-in-process
echo "== load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== cold get-image, 22 MP JPEG to 1280x960 PNG: A sandboxed / B in process"
farm-bench -n "$runs" --vs "$(ctl B) get-image --no-cache -o /dev/null" -- $(ctl A) get-image --no-cache -o /dev/null
echo "== warm get-image (cache hit)"
farm-bench -n "$runs" --vs "$(ctl B) get-image -o /dev/null" -- $(ctl A) get-image -o /dev/null
echo "== cold grid of 3 cells (a new cell size each run)"
for d in A B; do  # one script per daemon: the next cell size from its own counter, so A and B ask the same
    printf '#!/bin/sh\nn=$(cat %s/n%s 2>/dev/null || echo 0); echo $((n+1)) >%s/n%s\nexec %s thumbnails --size $((300+n)) -o /dev/null\n' \
        "$dir" "$d" "$dir" "$d" "$(ctl $d)" >"$dir/grid$d"
    chmod +x "$dir/grid$d"
done
farm-bench -n "$runs" --vs "$dir/gridB" -- "$dir/gridA"
# CPU of the daemon and its workers (utime+stime from /proc): what a request costs, whatever the load.
ticks() { local t=0 p; for p in "$@"; do t=$((t + $(awk '{print $14+$15}' "/proc/$p/stat"))); done; echo $t; }
family() { echo "$1 $(cat /proc/"$1"/task/*/children)"; }
for d in A B; do
    eval "p=\$pid_$d"
    before=$(ticks $(family "$p"))
    for _ in $(seq 20); do $(ctl $d) get-image --no-cache -o /dev/null; done
    after=$(ticks $(family "$p"))
    echo "$d: daemon+workers CPU for 20 cold get-image: $(( (after - before) * 1000 / $(getconf CLK_TCK) )) ms"
    before=$(ticks $(family "$p"))
    for i in $(seq 20); do $(ctl $d) thumbnails --size $((700 + i)) -o /dev/null; done
    after=$(ticks $(family "$p"))
    echo "$d: daemon+workers CPU for 20 cold 3-cell grids: $(( (after - before) * 1000 / $(getconf CLK_TCK) )) ms"
done
echo "== peak memory after one cold get-image from a fresh start"
for p in "${pids[@]}"; do kill "$p"; done; wait 2>/dev/null || true; pids=()
rm -f "$dir"/*.sock
start A
start B --decode-in-process
$(ctl A) get-image --no-cache -o /dev/null
$(ctl B) get-image --no-cache -o /dev/null
hwm() { awk '/VmHWM/ {print $2}' "/proc/$1/status"; }
workers=$(cat /proc/"$pid_A"/task/*/children)
echo "A daemon VmHWM $(hwm "$pid_A") kB; workers: $(for w in $workers; do echo -n "$w $(hwm "$w") kB; "; done)"
echo "B daemon VmHWM $(hwm "$pid_B") kB"
echo "== load: $(cut -d' ' -f1-3 /proc/loadavg)"
