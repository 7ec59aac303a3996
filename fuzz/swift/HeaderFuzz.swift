// libFuzzer target "header": ImageHeaderReader (format sniffing, JPEG markers, PNG chunks, WebP
// RIFF chunks, the EXIF/TIFF parser behind them) over an in-memory file, as the library scanner
// runs it on every file it indexes. Linked against the package's library targets built with
// -sanitize=fuzzer,address (see fuzz/build.sh).
import PickerEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func headerFuzzOneInput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    do {
        let header = try ImageHeaderReader.read(bytes: bytes, name: "fuzz.bin")
        _ = "\(header)"
    } catch {
        if error.message.isEmpty { fatalError("refusal without a message") }
    }
    // The EXIF parser also sees the raw bytes as a TIFF block (as from an eXIf chunk).
    let info = ExifReader.parse(bytes)
    _ = info.orientation
    return 0
}
