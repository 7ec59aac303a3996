#if canImport(Glibc)
import Glibc
#endif

/// Folder creation shared by the state folder and the thumbnail cache.
public enum FileSystemPaths {
    /// `mkdir -p` (`mkdir(2)`): every missing folder of `path` is created with `mode`;
    /// existing folders are left as they are.
    /// - Throws: `SystemError` naming the folder that could not be made.
    public static func makeDirectories(_ path: String, mode: mode_t) throws(SystemError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + part
            if mkdir(current, mode) != 0 {
                let error = Errno.current
                if error.rawValue == EEXIST { continue }
                throw SystemError("mkdir \(current)", error)
            }
        }
    }
}
