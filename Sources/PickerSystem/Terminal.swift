#if canImport(Glibc)
import Glibc
#endif
import CPickerSys

/// A terminal's size in character cells and, when it says, in pixels.
public struct TerminalSize: Equatable, Sendable {
    public var rows: Int
    public var columns: Int
    /// 0 when the terminal does not report its pixel size (TIOCGWINSZ ws_xpixel/ws_ypixel).
    public var pixelWidth: Int
    public var pixelHeight: Int
    public init(rows: Int, columns: Int, pixelWidth: Int = 0, pixelHeight: Int = 0) {
        self.rows = rows
        self.columns = columns
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}

/// The terminal settings saved before raw mode, to be put back on every way out.
public struct SavedTerminalMode: @unchecked Sendable {
    fileprivate var attributes: termios
}

/// System calls on a terminal device: open the controlling terminal, raw mode, window size, polling.
public enum Terminal {
    /// open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY): the controlling terminal even when stdin and
    /// stdout are redirected (as fzf draws). Throws when the process has none.
    public static func openControllingTerminal() throws(SystemError) -> Int32 {
        try retryingInterrupts("open /dev/tty") { open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY) }
    }

    /// isatty(3).
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// ioctl(TIOCGWINSZ).
    public static func size(_ fd: Int32) throws(SystemError) -> TerminalSize {
        var rows: Int32 = 0, cols: Int32 = 0, xpixel: Int32 = 0, ypixel: Int32 = 0
        _ = try retryingInterrupts("ioctl TIOCGWINSZ") { pk_window_size(fd, &rows, &cols, &xpixel, &ypixel) }
        return TerminalSize(rows: Int(rows), columns: Int(cols), pixelWidth: Int(xpixel), pixelHeight: Int(ypixel))
    }

    /// tcgetattr + cfmakeraw + tcsetattr: bytes arrive one by one, unechoed, Ctrl-C as a byte (no SIGINT).
    /// - Returns: the previous settings, for `restore`.
    public static func enterRawMode(_ fd: Int32) throws(SystemError) -> SavedTerminalMode {
        var saved = termios()
        _ = try retryingInterrupts("tcgetattr") { tcgetattr(fd, &saved) }
        var raw = saved
        cfmakeraw(&raw)
        _ = try retryingInterrupts("tcsetattr") { tcsetattr(fd, TCSAFLUSH, &raw) }
        return SavedTerminalMode(attributes: saved)
    }

    /// tcsetattr with the saved settings; errors are ignored because it runs on the way out.
    public static func restore(_ fd: Int32, _ mode: SavedTerminalMode) {
        var attributes = mode.attributes
        _ = tcsetattr(fd, TCSAFLUSH, &attributes)
    }

    /// write(2) of every byte to a terminal (blocking), looping over short writes.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) in
                    try retryingInterrupts("write") { Glibc.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset) }
                }
            }
            offset += try written.get()
        }
    }

    /// poll(2) for readability on `descriptors`; which of them are readable (or hung up).
    /// A negative timeout waits forever; EINTR counts as "nothing ready".
    public static func waitReadable(_ descriptors: [Int32], timeoutMilliseconds: Int32) throws(SystemError) -> [Bool] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        if n < 0 {
            if Errno.current == .interrupted { return descriptors.map { _ in false } }
            throw SystemError("poll")
        }
        return fds.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
    }

    /// Reads what is available (at most `limit` bytes); empty at end of file.
    public static func readAvailable(_ fd: Int32, limit: Int = 4096) throws(SystemError) -> [UInt8] {
        try readAvailableOrEnd(fd, limit: limit) ?? []
    }

    /// Like `readAvailable`, but nil at end of file (a pty whose other side was closed).
    public static func readAvailableOrEnd(_ fd: Int32, limit: Int = 4096) throws(SystemError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: limit)
        let progress = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) in try FileDescriptorIO.read(fd, into: raw) }
        }
        switch try progress.get() {
        case .transferred(let n): return Array(buffer[0..<n])
        case .wouldBlock: return []
        case .endOfFile: return nil
        }
    }
}

/// Signals delivered through a descriptor (signalfd) so a poll loop handles them like input.
public final class SignalDescriptor {
    public let descriptor: Int32
    private let signals: [Int32]

    /// Blocks `signals` in this thread and opens a signalfd for them (pk_signal_fd).
    public init(_ signals: [Int32]) throws(SystemError) {
        self.signals = signals
        descriptor = try retryingInterrupts("signalfd") { signals.withUnsafeBufferPointer { pk_signal_fd($0.baseAddress, Int32($0.count)) } }
    }

    /// The signals queued since the last call.
    public func drain() -> [Int32] { Self.drain(descriptor) }

    /// The signals queued on a signalfd since the last call (for a loop that holds only the descriptor).
    public static func drain(_ descriptor: Int32) -> [Int32] {
        var out: [Int32] = []
        while true {
            let s = pk_signal_fd_read(descriptor)
            if s <= 0 { return out }
            out.append(s)
        }
    }

    deinit {
        _ = signals.withUnsafeBufferPointer { pk_signal_unblock($0.baseAddress, Int32($0.count)) }
        FileDescriptorIO.close(descriptor)
    }
}
