import PickerSystem

/// The controlling terminal while the picker runs: raw mode, the alternate screen, a hidden cursor and
/// SGR mouse reporting. `restore()` undoes all of it and is safe to call more than once, so every way out
/// (accept, cancel, signal, lost daemon) ends with the user's screen as it was.
final class TerminalSession {
    let descriptor: Int32
    private var saved: SavedTerminalMode?

    /// Alternate screen, hidden cursor, SGR mouse (press + wheel), cleared screen.
    static let enterSequence = "\u{1b}[?1049h\u{1b}[?25l\u{1b}[?1000h\u{1b}[?1006h\u{1b}[2J"
    /// Mouse off, attributes reset, cursor shown, main screen back.
    static let leaveSequence = "\u{1b}[?1006l\u{1b}[?1000l\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l"

    /// Opens /dev/tty. Throws a usage error (exit 2) when there is no terminal.
    init() throws(CLIError) {
        do {
            descriptor = try Terminal.openControllingTerminal()
        } catch {
            throw .usage("pick needs a terminal (/dev/tty: \(error.errno)); run it from an interactive shell")
        }
        guard Terminal.isTerminal(descriptor) else {
            FileDescriptorIO.close(descriptor)
            throw .usage("pick needs a terminal; /dev/tty is not one")
        }
    }

    /// Raw mode and the full-screen setup.
    func start() throws(CLIError) {
        do {
            saved = try Terminal.enterRawMode(descriptor)
        } catch {
            throw .usage("pick needs a terminal (\(error))")
        }
        write(Self.enterSequence)
    }

    func size() -> TerminalSize {
        (try? Terminal.size(descriptor)) ?? TerminalSize(rows: 24, columns: 80)
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    /// Errors are dropped: a terminal that went away leaves nothing to draw on.
    func write(_ bytes: [UInt8]) { try? Terminal.writeAll(descriptor, bytes) }

    /// Bytes available now (after poll said readable); nil when the terminal is gone: end of file or
    /// a read error (EIO) once its window was closed. Polling it again would spin.
    func read() -> [UInt8]? {
        do throws(SystemError) {
            return try Terminal.readAvailableOrEnd(descriptor)
        } catch {
            return nil
        }
    }

    /// Leaves the alternate screen and restores the saved mode; a second call does nothing.
    func restore() {
        guard let mode = saved else { return }
        saved = nil
        write(Self.leaveSequence)
        Terminal.restore(descriptor, mode)
    }

    deinit {
        restore()
        FileDescriptorIO.close(descriptor)
    }
}
