// libFuzzer target "journal": the entry logic is `SessionJournalFuzzEntry.run` in Sources/PickerEngine/Fuzzing/, shared with the
// replay of fuzz/regressions/journal/ in `make test`. Linked against the package's library targets
// built with -sanitize=fuzzer,address (see fuzz/build.sh). A broken promise traps, so libFuzzer
// keeps the input as a crash.
import PickerEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let findings = SessionJournalFuzzEntry.run(Array(UnsafeBufferPointer(start: data, count: count)))
    if !findings.isEmpty { fatalError("journal: \(findings)") }
    return 0
}
