import PickerSystem

/// Random access to the start of an image file for header parsing: a window of bytes
/// (the first 64 KiB to begin with) that is refilled with `pread` at another offset only when
/// a parser asks for bytes beyond it. Over an in-memory array the window is the whole array.
struct HeaderBytes {
    static let windowSize = 64 * 1024

    private var window: [UInt8]
    private var windowStart: Int
    private let fd: Int32?
    /// Total length of the file (or array).
    let size: Int
    /// The first read error, if any: the parser's "truncated" then really means "could not read".
    private(set) var readError: SystemError?

    init(bytes: [UInt8]) {
        window = bytes
        windowStart = 0
        fd = nil
        size = bytes.count
    }

    /// Reads the first window from `fd`; `size` is the file's length from `fstat`.
    init(fd: Int32, size: Int) {
        self.fd = fd
        self.size = size
        windowStart = 0
        window = []
        load(at: 0)
    }

    var prefix: ArraySlice<UInt8> { windowStart == 0 ? window[...] : [] }

    private mutating func load(at offset: Int) {
        guard let fd else { return }
        do throws(SystemError) {
            window = try FileSystem.read(fd, at: offset, count: Self.windowSize)
        } catch {
            if readError == nil { readError = error }
            window = []
        }
        windowStart = offset
    }

    mutating func byte(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < size else { return nil }
        if offset < windowStart || offset >= windowStart + window.count {
            guard fd != nil else { return nil }
            load(at: offset)
        }
        let i = offset - windowStart
        guard i >= 0, i < window.count else { return nil }
        return window[i]
    }

    /// `count` bytes at `offset`, or nil when they are not all there.
    mutating func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard count >= 0, offset >= 0, offset <= size - count else { return nil }
        if offset >= windowStart, offset + count <= windowStart + window.count {
            let i = offset - windowStart
            return Array(window[i..<(i + count)])
        }
        guard let fd else { return nil }
        if count <= Self.windowSize / 4 {
            load(at: offset)
            guard count <= window.count else { return nil }
            return Array(window[0..<count])
        }
        do throws(SystemError) {
            let bytes = try FileSystem.read(fd, at: offset, count: count)
            return bytes.count == count ? bytes : nil
        } catch {
            if readError == nil { readError = error }
            return nil
        }
    }

    /// True when the bytes at `offset` equal `expected`.
    mutating func matches(_ expected: String, at offset: Int) -> Bool {
        let e = Array(expected.utf8)
        return bytes(at: offset, count: e.count) == e
    }

    mutating func u16be(at o: Int) -> Int? {
        guard let a = byte(at: o), let b = byte(at: o + 1) else { return nil }
        return Int(a) << 8 | Int(b)
    }

    mutating func u32be(at o: Int) -> Int? {
        guard let hi = u16be(at: o), let lo = u16be(at: o + 2) else { return nil }
        return hi << 16 | lo
    }

    mutating func u16le(at o: Int) -> Int? {
        guard let a = byte(at: o), let b = byte(at: o + 1) else { return nil }
        return Int(a) | Int(b) << 8
    }

    mutating func u24le(at o: Int) -> Int? {
        guard let lo = u16le(at: o), let c = byte(at: o + 2) else { return nil }
        return lo | Int(c) << 16
    }

    mutating func u32le(at o: Int) -> Int? {
        guard let lo = u16le(at: o), let hi = u16le(at: o + 2) else { return nil }
        return lo | hi << 16
    }
}
