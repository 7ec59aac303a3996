#!/usr/bin/env bash
# Runs a debug pickerd under valgrind memcheck through a representative session (every
# pickerctl command, every output format, broken and oversized files, protocol abuse,
# mid-reply disconnects), stops it with SIGTERM and reports the leak summary.
#
#   scripts/soak/valgrind-session.sh [BIN_DIR]    (default: .build/debug; build with `swift build`)
#
# The full valgrind log is kept in the printed folder. Exits 1 if valgrind reports
# "definitely lost" bytes or memory errors.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${1:-$repo/.build/debug}
pickerd=$bin/pickerd
ctl_bin=$bin/pickerctl
command -v valgrind >/dev/null || { echo "valgrind-session: apt-get install valgrind" >&2; exit 1; }
td=$(python3 "$repo/scripts/testcorpus.py")  # PICKER_TESTDATA, ../shared/testdata, Tests/Fixtures

tmp=$(mktemp -d /tmp/pkvg.XXXXXX)
lib=$tmp/lib
sock=$tmp/s.sock
mkdir -p "$lib/Camera" "$lib/Orient" "$lib/PNG" "$lib/WebP" "$lib/Broken"
cp "$(ls "$td"/camera-photos/*.jpg | head -1)" "$lib/Camera/"  # one camera photo is enough
cp "$td"/exif-orientation/* "$lib/Orient/" 2>/dev/null || true
rm -rf "$lib/Orient/LICENSES"
for f in basn0g01 basn2c16 basn3p08 basn4a16 basn6a08 basi0g08 basi6a16 tbrn2c08; do
    cp "$td/pngsuite/$f.png" "$lib/PNG/" 2>/dev/null || true
done
cp "$td"/webp/*.webp "$lib/WebP/" 2>/dev/null || true
cp "$td"/jpeg-broken/*.jpg "$lib/Broken/" 2>/dev/null || true
cp "$td"/png-broken/*.png "$lib/Broken/" 2>/dev/null || true
cp "$td"/bombs/* "$lib/Broken/" 2>/dev/null || true
cp "$repo"/Tests/Regressions/*.png "$lib/Broken/" 2>/dev/null || true

# valgrind 3.19 cannot read the DWARF of Swift 6.3 debug builds ("Possibly corrupted debuginfo
# file. I can't recover."): run a copy without debug sections. Symbols stay, so leak stacks
# still name the functions (Swift names are mangled; pipe through swift demangle).
objcopy --strip-debug "$pickerd" "$tmp/pickerd"
vglog=$tmp/valgrind.log
valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect,possible \
    --errors-for-leak-kinds=definite --num-callers=40 --log-file="$vglog" \
    "$tmp/pickerd" --library "$lib" --socket "$sock" --state-dir "$tmp/state" --cache-mb 8 \
    $("$pickerd" --help 2>&1 | grep -q no-shared-thumbnails && echo --no-shared-thumbnails) \
    2>"$tmp/pickerd.log" &
vpid=$!
ctl() { "$ctl_bin" --socket "$sock" "$@"; }
for _ in $(seq 600); do
    ctl ping >/dev/null 2>&1 && break
    kill -0 "$vpid" 2>/dev/null || { echo "valgrind-session: pickerd under valgrind exited; see $vglog" >&2; tail -5 "$vglog" >&2; exit 1; }
    sleep 0.2
done
ctl ping
started=$SECONDS

run() { ctl "$@" >/dev/null 2>>"$tmp/ctl-errors.log" || echo "  ($* -> exit $?)"; }
echo "valgrind-session: session commands"
run session new --width 640 --height 480
run session new other --width 300 --max-selection 2 --title "Other"
run library
run albums
run session list
for album in Camera Orient PNG WebP Broken; do
    run select-album "$album"
    run photos
    run photos --sort date
    n=$(ctl --json photos | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["photos"]))')
    for i in $(seq 1 "$n"); do
        run select-photo --index "$i"
        run status
        run get-image -o /dev/null
        if [[ $((i % 3)) == 0 ]]; then
            run get-image --format jpeg --quality 70 --no-cache -o /dev/null
            run get-image --format webp -o /dev/null
            run preview -o /dev/null
        fi
        [[ $i -le 3 ]] && run toggle --index "$i"
    done
    run thumbnails -o /dev/null
    run thumbnails --size 64 --json
    run next
    run prev
done
run selection
run clear-selection
run session resize --width 200 --height 200
run get-image -o /dev/null
run select-album ../x
run select-photo /etc/passwd
run session show other
run session close other

echo "valgrind-session: protocol abuse, disconnects"
python3 - "$sock" <<'EOF'
import socket, struct, sys, time
path = sys.argv[1]
def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(path); s.settimeout(30); return s
def hello(s):
    p = struct.pack(">H", 1) + struct.pack(">I", 2) + b"vg"
    s.sendall(struct.pack(">IBI", 5 + len(p), 1, 1) + p); s.recv(65536)
for payload in (b"GET / HTTP/1.1\r\n\r\n", b"\x7f\xff\xff\xff", b"\x00\x00\x00\x02abc",
                struct.pack(">IBI", 5, 4, 9)):
    s = conn(); s.sendall(payload)
    try: s.recv(65536)
    except OSError: pass
    s.close()
s = conn(); hello(s)
for t in (0x7e, 0x05, 0x2a, 0x30, 0x22):
    s.sendall(struct.pack(">IBI", 7, t, 5) + b"\xff\xff"); s.recv(65536)
s.close()
# mid-reply disconnects on a large render
for i in range(5):
    s = conn(); hello(s)
    name = b"default"
    p = struct.pack(">I", len(name)) + name + bytes([2, 0, 1])
    s.sendall(struct.pack(">IBI", 5 + len(p), 0x30, 2) + p)
    if i % 2: s.recv(10)
    s.close()
# half a frame, then close (and one left to time out)
s = conn(); hello(s); s.sendall(b"\x00\x00\x00\x09\x04"); s.close()
s = conn(); hello(s); s.sendall(b"\x00\x00\x00\x09\x04")
s.settimeout(60); print("  half frame answered:", s.recv(200)[9:60]); s.close()
EOF
run ping
echo "valgrind-session: $((SECONDS - started)) s of requests; SIGTERM"
kill -TERM "$vpid"
wait "$vpid" || echo "valgrind-session: pickerd exited with $?"

echo "valgrind-session: log in $vglog"
grep -E "ERROR SUMMARY|definitely lost|indirectly lost|possibly lost|still reachable|suppressed" "$vglog" | sed 's/^==[0-9]*== /  /'
if grep -qE "definitely lost: [1-9]" "$vglog" || ! grep -q "ERROR SUMMARY: 0 errors" "$vglog"; then
    echo "valgrind-session: definite leaks or memory errors (see the log)"
    exit 1
fi
echo "valgrind-session: no definite leaks, no memory errors"
