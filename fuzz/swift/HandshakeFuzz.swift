// libFuzzer target "handshake": the entry logic is `HandshakeFuzzEntry.run` in Sources/PickerDaemon/Fuzzing/, shared with the
// replay of fuzz/regressions/handshake/ in `make test`. Linked against the package's library targets
// built with -sanitize=fuzzer,address (see fuzz/build.sh). A broken promise traps, so libFuzzer
// keeps the input as a crash.
import PickerDaemon
import PickerEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let findings = HandshakeFuzzEntry.run(Array(UnsafeBufferPointer(start: data, count: count)))
    if !findings.isEmpty { fatalError("handshake: \(findings)") }
    return 0
}
