// libFuzzer target "library": the entry logic is `LibraryFuzzEntry.run` in Sources/PickerEngine/Fuzzing/ (one file
// in a real library: header -> index -> estimate -> render through PickerService), shared with the
// replay of fuzz/regressions/library/ in `make test`. Its custom mutator rewrites declared sizes,
// offsets and counts (`StructureMutator`) three times in four, and leaves the rest to libFuzzer's
// byte mutations. A broken promise traps, so libFuzzer keeps the input as a crash.
import PickerEngine

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let findings = LibraryFuzzEntry.run(Array(UnsafeBufferPointer(start: data, count: count)))
    if !findings.isEmpty { fatalError("library: \(findings)") }
    return 0
}

@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    guard seed % 4 != 0,
          let mutated = StructureMutator.mutate(Array(UnsafeBufferPointer(start: data, count: size)), seed: UInt64(seed)),
          mutated.count <= maxSize
    else { return LLVMFuzzerMutate(data, size, maxSize) }
    for (i, byte) in mutated.enumerated() { data[i] = byte }
    return mutated.count
}
