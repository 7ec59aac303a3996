// libFuzzer target "raw": the entry logic is `RAWFuzzEntry.run` in Sources/PickerEngine/Fuzzing/, shared with the
// replay of fuzz/regressions/raw/ in `make test`. Linked against the package's library targets
// built with -sanitize=fuzzer,address (see fuzz/build.sh). A broken promise traps, so libFuzzer
// keeps the input as a crash.
import PickerEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func rawFuzzOneInput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let findings = RAWFuzzEntry.run(Array(UnsafeBufferPointer(start: data, count: count)))
    if !findings.isEmpty { fatalError("raw: \(findings)") }
    return 0
}
