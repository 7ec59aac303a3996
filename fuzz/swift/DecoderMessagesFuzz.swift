// libFuzzer target "decodermsg": the entry logic is `DecoderMessagesFuzzEntry.run` in Sources/PickerEngine/Fuzzing/,
// shared with the replay of fuzz/regressions/decodermsg/ in `make test`. Linked against the package's library
// targets built with -sanitize=fuzzer,address (see fuzz/build.sh). A broken promise traps, so libFuzzer
// keeps the input as a crash.
import PickerEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let findings = DecoderMessagesFuzzEntry.run(Array(UnsafeBufferPointer(start: data, count: count)))
    if !findings.isEmpty { fatalError("decodermsg: \(findings)") }
    return 0
}
