#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// One `pick` in a terminal window, for one request. A private folder (0700, under the runtime
/// folder) holds `done`, a FIFO the wrapper writes pick's exit status to when pick ends, so the
/// portal's loop learns it by polling the FIFO — also when the terminal is a tmux window or a
/// terminal server whose process ends at once. The answer itself comes from the session's events
/// (pick finishes the session it serves); pick's own output is not read.
final class PickLaunch {
    let directory: String
    /// The FIFO's read end, opened read-write so it never reads end-of-file (non-blocking).
    let doneDescriptor: Int32
    /// The terminal's process (exits at once for `tmux new-window`, `gnome-terminal`).
    private(set) var terminalPID: pid_t = 0

    /// The wrapper pick runs under: `$1` is the folder, the rest is the pick command. A window closed
    /// under it hangs the shell up too: the trap still reports (129, a cancel) once pick has ended.
    static let wrapper = #"d=$1; shift; trap 'echo 129 >"$d/done"; exit 129' HUP TERM; "$@" >/dev/null; echo $? >"$d/done""#

    /// Makes the folder and FIFO and starts `terminal + [sh, -c, wrapper, …, pickCommand]`.
    convenience init(terminal: [String], pickCommand: [String], runtimeDirectory: String) throws(PortalFailure) {
        try self.init(terminal: terminal, runtimeDirectory: runtimeDirectory) { _ in pickCommand }
    }

    /// The same with a command made for the folder (a save prompt writes its answer there).
    init(terminal: [String], runtimeDirectory: String, command: (String) -> [String]) throws(PortalFailure) {
        var template = Array((runtimeDirectory + "/pickerd-portal-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw PortalFailure("cannot make a folder in \(runtimeDirectory): \(Errno.current)") }
        directory = String(cString: made)
        guard mkfifo(directory + "/done", 0o600) == 0 else {
            let why = Errno.current
            rmdir(directory)
            throw PortalFailure("cannot make a FIFO in \(directory): \(why)")
        }
        doneDescriptor = open(directory + "/done", O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard doneDescriptor >= 0 else {
            let why = Errno.current
            remove()
            throw PortalFailure("cannot open \(directory)/done: \(why)")
        }
        let argv = terminal + ["sh", "-c", Self.wrapper, "pickerd-portal-pick", directory] + command(directory)
        do {
            terminalPID = try Self.spawn(argv)
        } catch {
            remove()
            throw error
        }
    }

    /// pick's exit status once the wrapper wrote it, else nil.
    func status() -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(doneDescriptor, &buffer, buffer.count)
        guard n > 0 else { return nil }
        let digits = buffer[0..<n].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return Int32(String(decoding: digits, as: UTF8.self)) ?? 1
    }

    /// Removes the folder. The FIFO goes before its descriptor is closed: a wrapper that ends later
    /// then finds no FIFO instead of blocking on one nobody reads.
    func remove() {
        unlink(directory + "/done")
        for file in SavePrompt.files { unlink(directory + "/" + file) }
        rmdir(directory)
        if doneDescriptor >= 0 { FileDescriptorIO.close(doneDescriptor) }
    }

    /// posix_spawnp with stdin on /dev/null and an empty signal mask (the portal blocks the
    /// signals its signalfd reads, and a child would inherit that).
    private static func spawn(_ argv: [String]) throws(PortalFailure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let r = posix_spawnp(&pid, argv[0], &actions, &attributes, cArgs, environ)
        guard r == 0 else { throw PortalFailure("cannot start the terminal \(argv[0]): \(Errno(rawValue: r))") }
        return pid
    }
}

/// Why a request could not be served (logged; the request ends with response 2).
public struct PortalFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
