#if canImport(Glibc)
import Glibc
#endif
import PickerPortalRules
import PickerSystem

/// What `pickerctl portal setup` and `remove` change, on paths in the user's own config and data folders.
extension PortalFiles {
    /// Writes `text` to `path` atomically (mode 0644), creating missing folders (0755).
    static func write(_ text: String, to path: String) throws(CLIError) {
        do {
            try FileSystemPaths.makeDirectories(folder(of: path), mode: 0o755)
            try AtomicFileWriter.replace(path: path, with: Array(text.utf8), mode: 0o644, durable: true)
        } catch {
            throw CLIError(message: "cannot write \(path): \(error)", exitCode: .failure)
        }
    }

    /// Makes the symlink `path` → `target`, creating missing folders.
    static func link(_ path: String, to target: String) throws(CLIError) {
        do { try FileSystemPaths.makeDirectories(folder(of: path), mode: 0o755) } catch {
            throw CLIError(message: "cannot make \(folder(of: path)): \(error)", exitCode: .failure)
        }
        guard symlink(target, path) == 0 else {
            throw CLIError(message: "cannot link \(path) to \(target): \(Errno.current)", exitCode: .failure)
        }
    }

    /// Removes a file or symlink (not a folder); one already gone is not an error.
    static func remove(_ path: String) throws(CLIError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw CLIError(message: "cannot remove \(path): \(Errno.current)", exitCode: .failure)
        }
    }

    /// Removes `folder` and then each parent up to (not including) `stop`, as long as they are empty.
    /// - Returns: the folders removed.
    static func removeEmptyFolders(from folder: String, upTo stop: String) -> [String] {
        var removed: [String] = []
        var current = folder
        while current.hasPrefix(stop + "/"), rmdir(current) == 0 {
            removed.append(current)
            current = self.folder(of: current)
        }
        return removed
    }

}
