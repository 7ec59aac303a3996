#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// `-o FILE` on a text command: stdout goes to a temp file beside FILE, put in its place only when
/// the command succeeds (or, for `watch`, when it is interrupted, which is how it succeeds). A failed
/// command leaves FILE exactly as it was, and a symlink at FILE is replaced, never followed.
/// A FILE that exists and is not a regular file (/dev/null, a FIFO, a terminal) is written in place.
enum TextOutputFile {
    /// The replacement under way; a process-wide value because a signal handler commits it.
    nonisolated(unsafe) private static var pending: PendingFileReplacement?

    /// Sends stdout to `path` (see the type's summary).
    static func redirect(to path: String) throws(CLIError) {
        var st = stat()
        if stat(path, &st) == 0 && st.st_mode & S_IFMT != S_IFREG {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw cannotWrite(path, Errno.current) }
            defer { close(fd) }
            guard dup2(fd, 1) >= 0 else { throw cannotWrite(path, Errno.current) }
            return
        }
        let replacement: PendingFileReplacement
        do {
            replacement = try PendingFileReplacement(path: path, mode: modeForReplacing(path))
        } catch {
            throw cannotWrite(path, error.errno)
        }
        guard dup2(replacement.descriptor, 1) >= 0 else {
            replacement.abandon()
            throw cannotWrite(path, Errno.current)
        }
        pending = replacement
    }

    /// Flushes stdout into the temp file and puts it in place of FILE.
    static func commit() throws(CLIError) {
        guard let replacement = pending else { return }
        pending = nil
        guard fflush(nil) == 0 else {
            let e = Errno.current
            replacement.abandon()
            throw CLIError(message: "writing the output failed: \(e)", exitCode: .failure)
        }
        do {
            try replacement.commit()
        } catch {
            throw CLIError(message: "cannot write the output: \(error)", exitCode: .failure)
        }
    }

    /// Drops what was written; FILE stays as it was.
    static func abandon() {
        pending?.abandon()
        pending = nil
    }

    /// `commit` from a handler of a signal that ends the process successfully (async-signal-safe).
    static func commitFromSignalHandler() { pending?.commitFromSignalHandler() }

    /// The permission bits a replaced FILE keeps (its own, so a private file stays private); 0644 for a new one.
    static func modeForReplacing(_ path: String) -> mode_t {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return 0o644 }
        return st.st_mode & 0o777
    }

    private static func cannotWrite(_ path: String, _ e: Errno) -> CLIError {
        CLIError(message: "cannot write \(path): \(e)", exitCode: .failure)
    }
}
