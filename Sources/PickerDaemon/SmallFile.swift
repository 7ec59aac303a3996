#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// Reads a small text file (at most 64 KiB) or nil.
func readSmallTextFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { FileDescriptorIO.close(fd) }
    var buf = [UInt8](repeating: 0, count: 64 * 1024)
    var total = 0
    while total < buf.count {
        let n = buf.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress.map { $0 + total }, raw.count - total) }
        if n <= 0 { break }
        total += n
    }
    return String(decoding: buf[0..<total], as: UTF8.self)
}
