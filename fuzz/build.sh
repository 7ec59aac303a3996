#!/usr/bin/env bash
# Builds the libFuzzer targets into fuzz/build/ (outside Package.swift: the package is unchanged).
#   C targets (jpeg, png, webp, heif, gif, jxl): clang -fsanitize=fuzzer,address over Sources/CPickerCodecs/*.c.
#   Swift targets (frame, message): swiftc -sanitize=fuzzer,address over the sources they
#   exercise, compiled as one module with the fuzz entry file.
#   Package-linked targets (header, image, raw, library, pngtext, sessions, journal, handshake): the package's library targets
#   built by SwiftPM with -sanitize=fuzzer,address into fuzz/build/spm (release), then
#   a one-line @_cdecl entry from fuzz/swift/ linked against their objects. The entry logic lives
#   in Sources/*/Fuzzing/ so the replay tests in `make test` run the very same code.
# Uses the clang of the Swift toolchain (it ships libclang_rt.fuzzer); falls back to Debian's
# clang-14 + libclang-rt-14-dev, installing them when missing and running as root.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="$here/build"
mkdir -p "$out"
[ -x /opt/swift/usr/bin/swiftc ] && export PATH="/opt/swift/usr/bin:$PATH"

has_fuzzer_rt() {  # $1 = clang
    echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){return 0;}' \
        | "$1" -x c -fsanitize=fuzzer,address -o /dev/null - >/dev/null 2>&1
}
CC="${FUZZ_CC:-}"
if [ -z "$CC" ]; then
    for c in clang clang-14; do
        if command -v "$c" >/dev/null && has_fuzzer_rt "$c"; then CC="$c"; break; fi
    done
fi
if [ -z "$CC" ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "fuzz: installing clang and libclang-rt-14-dev" >&2
        apt-get update -qq && apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev
        CC=clang
        has_fuzzer_rt "$CC" || CC=clang-14
    else
        echo "fuzz: no clang with libFuzzer; run: sudo apt-get install -y --no-install-recommends clang libclang-rt-14-dev" >&2
        exit 1
    fi
fi
pkg_cflags="$(pkg-config --cflags libjpeg libpng libwebp libwebpdemux libheif libjxl lcms2 2>/dev/null || true)"
# The libraries CPickerCodecs links, as Package.swift lists them.
libs="$(grep -o 'linkedLibrary("[^"]*")' "$root/Package.swift" | sed 's/linkedLibrary("\(.*\)")/-l\1/' | sort -u | tr '\n' ' ')"
[ -n "$libs" ] || libs="-ljpeg -lpng16 -lwebp -lwebpdemux -lm"
# System-library targets link through their module maps (CSQLite: `link "sqlite3"`), not Package.swift.
libs="$libs $(grep -ho 'link "[^"]*"' "$root"/Sources/*/module.modulemap 2>/dev/null | sed 's/link "\(.*\)"/-l\1/' | sort -u | tr '\n' ' ')"
codecs=("$root"/Sources/CPickerCodecs/*.c)
lld=()
command -v ld.lld >/dev/null && lld=(-fuse-ld=lld)
cflags=("${lld[@]}" -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
        -fno-sanitize-recover=undefined -I"$root/Sources/CPickerCodecs/include" -I"$here/c")

for t in jpeg png webp heif gif jxl; do
    echo "fuzz: building fuzz_$t ($CC)"
    # shellcheck disable=SC2086
    "$CC" "${cflags[@]}" $pkg_cflags "$here/c/fuzz_$t.c" "${codecs[@]}" $libs -o "$out/fuzz_$t"
done

proto=("$root"/Sources/PickerProtocol/*.swift)
swiftlld=()
command -v ld.lld >/dev/null && swiftlld=(-use-ld=lld)
swiftflags=("${swiftlld[@]}" -sanitize=fuzzer,address -parse-as-library -g -O -swift-version 6)
build_swift() {  # name entry sources...
    local name="$1" entry="$2"; shift 2
    echo "fuzz: building fuzz_$name (swiftc)"
    # ld.gold warns once per ASan helper symbol ("Cannot export local symbol"): noise, filtered.
    (cd "$out" && swiftc "${swiftflags[@]}" -module-name "Fuzz_$name" "$@" "$here/swift/$entry" -o "$out/fuzz_$name" 2>&1 \
        | { grep -v "Cannot export local symbol" || true; })
    [ -x "$out/fuzz_$name" ]
}
build_swift frame FrameFuzz.swift "${proto[@]}"
build_swift message MessageFuzz.swift "${proto[@]}"

# Package-linked targets. SwiftPM instruments every library target (Swift and C); the entry
# file imports the modules and is linked with their objects and the C libraries they link.
spm="$out/spm"
echo "fuzz: building the package's library targets with the fuzzer and ASan (swift build, release)"
# Not `--sanitize fuzzer --sanitize address`: SwiftPM passes them to swiftc as two flags and the
# last one wins (the Swift code then has ASan but no coverage). One combined flag per compiler.
(cd "$root" && swift build -c release --build-path "$spm" --target PickerDaemon \
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address 2>&1 \
    | { grep -E "error|warning: |Build" || true; })
# Coverage must reach the Swift code, or libFuzzer runs blind there.
[ "$(nm "$spm/release/PickerEngine.build/PNGTextChunks.swift.o" | grep -c __sanitizer_cov)" -gt 0 ] \
    || { echo "fuzz: the Swift library code has no coverage instrumentation" >&2; exit 1; }
rel="$spm/release"
spm_objects=()
for m in PickerProtocol PickerSystem PickerEngine PickerDaemon CPickerSys CPickerCodecs CPickerTerminal; do
    spm_objects+=("$rel/$m.build"/*.o)
done
build_linked() {  # name entry
    local name="$1" entry="$2"
    echo "fuzz: building fuzz_$name (swiftc, linked against the package)"
    # shellcheck disable=SC2086
    (cd "$out" && swiftc "${swiftflags[@]}" -module-name "Fuzz_$name" -I "$rel/Modules" \
        -Xcc -fmodule-map-file="$rel/CPickerCodecs.build/module.modulemap" \
        -Xcc -fmodule-map-file="$rel/CPickerSys.build/module.modulemap" \
        -Xcc -fmodule-map-file="$rel/CPickerTerminal.build/module.modulemap" \
        -Xcc -fmodule-map-file="$root/Sources/CSQLite/module.modulemap" \
        "$here/swift/$entry" "${spm_objects[@]}" $libs -o "$out/fuzz_$name" 2>&1 \
        | { grep -v "Cannot export local symbol" || true; })
    [ -x "$out/fuzz_$name" ]
}
build_linked header HeaderFuzz.swift
build_linked image ImageFuzz.swift
build_linked raw RAWFuzz.swift
build_linked library LibraryFuzz.swift
build_linked pngtext PNGTextFuzz.swift
build_linked sessions SessionsFuzz.swift
build_linked journal JournalFuzz.swift
build_linked handshake HandshakeFuzz.swift
build_linked decodermsg DecoderMessagesFuzz.swift
echo "fuzz: targets in $out"
