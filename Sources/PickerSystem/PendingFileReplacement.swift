#if canImport(Glibc)
import Glibc
#endif

/// A file replacement under way, for output written over time (pickerctl's `-o FILE` on a text
/// command): a temp file beside the target, made the way `AtomicFileWriter` makes one, that is
/// `renameat(2)`'d over the target on `commit` or removed on `abandon`. Until then the target is
/// untouched: a failed command leaves the previous file as it was, and a symlink at the target is
/// replaced, not followed.
public final class PendingFileReplacement {
    /// The temp file, open for writing.
    public let descriptor: Int32
    private let folder: Int32
    private let temp: String
    private let name: String
    /// The same two names as C strings, kept for `commitFromSignalHandler` (which may not allocate).
    private let tempC: UnsafeMutablePointer<CChar>
    private let nameC: UnsafeMutablePointer<CChar>
    private var finished = false

    /// Starts replacing `path` (its folder opened as the path names it, `O_DIRECTORY`).
    /// - Parameter mode: the new file's permission bits before the umask.
    /// - Throws: `SystemError` naming the failed call (`open`, `openat`).
    public init(path: String, mode: mode_t) throws(SystemError) {
        let (folderPath, fileName) = AtomicFileWriter.split(path)
        let dfd = try retryingInterrupts("open \(folderPath)") { open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        do {
            (descriptor, temp) = try AtomicFileWriter.createTemporary(for: fileName, in: dfd, mode: mode)
        } catch {
            FileDescriptorIO.close(dfd)
            throw error
        }
        folder = dfd
        name = fileName
        tempC = strdup(temp)
        nameC = strdup(fileName)
    }

    /// Puts the written file in place of the target (`renameat(2)`); not durable (no fsync: a cache or
    /// a command's output, made again by running it again).
    public func commit() throws(SystemError) {
        guard !finished else { return }
        finished = true
        FileDescriptorIO.close(descriptor)
        do {
            _ = try retryingInterrupts("renameat") { renameat(folder, temp, folder, name) }
        } catch {
            _ = unlinkat(folder, temp, 0)
            throw error
        }
    }

    /// Removes the temp file; the target stays as it was.
    public func abandon() {
        guard !finished else { return }
        finished = true
        FileDescriptorIO.close(descriptor)
        _ = unlinkat(folder, temp, 0)
    }

    /// `commit` for a signal handler that ends the process (async-signal-safe: one `renameat(2)`,
    /// nothing allocated or locked). What was written is in the file already (unbuffered writes).
    public func commitFromSignalHandler() {
        _ = renameat(folder, tempC, folder, nameC)
    }

    deinit {
        abandon()
        FileDescriptorIO.close(folder)
        free(tempC)
        free(nameC)
    }
}
