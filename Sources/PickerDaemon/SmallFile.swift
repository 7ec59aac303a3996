import PickerSystem

/// Reads a small text file (at most 64 KiB; the rest is ignored) or nil when it cannot be opened.
func readSmallTextFile(_ path: String) -> String? {
    guard let fd = try? FileSystem.open(path: path, flags: FileSystem.readFlags) else { return nil }
    defer { FileDescriptorIO.close(fd) }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var total = 0
    while total < buffer.count {
        let progress = try? buffer.withMutableRawBytes { raw throws(SystemError) in
            try FileDescriptorIO.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[total...]))
        }
        guard case .transferred(let n)? = progress else { break }
        total += n
    }
    return String(decoding: buffer[0..<total], as: UTF8.self)
}
