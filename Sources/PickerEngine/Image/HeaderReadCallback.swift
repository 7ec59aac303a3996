import CPickerCodecs

/// The C header probes' reads (`pk_read_fn`: libheif's and libjxl's readers), served by the
/// `HeaderBytes` the context points at (a window of the file, refilled by `pread`), so a probe
/// reads only the bytes its library asks for. One callback for every C reader.
enum HeaderReadCallback {
    static let read: pk_read_fn = { context, offset, destination, count in
        guard let context, let destination, offset >= 0, offset <= Int64(Int.max) else { return -1 }
        let source = context.assumingMemoryBound(to: HeaderBytes.self)
        guard let bytes = source.pointee.bytes(at: Int(offset), count: count) else { return -1 }
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress { destination.copyMemory(from: base, byteCount: count) }
        }
        return 0
    }
}
