#if canImport(Glibc)
import Glibc
#endif

/// The entries of an open folder, read through `fdopendir`/`readdir` on a descriptor (never by path).
public enum DirectoryListing {
    /// One entry: its name and the type `readdir` reported (`.other` when the file system does not say).
    public struct Entry: Sendable {
        public var name: String
        public var kind: FileStatus.Kind
        /// The type came from `d_type` (DT_UNKNOWN gives false: the caller must `fstatat`).
        public var kindIsKnown: Bool
    }

    /// Lists the folder open at `directory` (the descriptor stays open and owned by the caller).
    /// Names that are not valid UTF-8 are counted, not returned.
    /// - Returns: the entries except "." and "..", and how many names were not UTF-8.
    public static func entries(of directory: Int32) throws(SystemError) -> (entries: [Entry], invalidNames: Int) {
        let copy = try retryingInterrupts("fcntl(F_DUPFD_CLOEXEC)") { fcntl(directory, F_DUPFD_CLOEXEC, 0) }
        guard let stream = fdopendir(copy) else {
            let e = SystemError("fdopendir")
            FileSystem.close(copy)
            throw e
        }
        defer { closedir(stream) }
        var entries: [Entry] = []
        var invalid = 0
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(validatingCString: $0)
                }
            }
            guard let name else { invalid += 1; continue }
            if name == "." || name == ".." { continue }
            let (kind, known) = kind(of: entry.pointee.d_type)
            entries.append(Entry(name: name, kind: kind, kindIsKnown: known))
        }
        return (entries, invalid)
    }

    private static func kind(of type: UInt8) -> (FileStatus.Kind, Bool) {
        switch Int32(type) {
        case Int32(DT_REG): return (.regular, true)
        case Int32(DT_DIR): return (.directory, true)
        case Int32(DT_LNK): return (.symlink, true)
        case Int32(DT_UNKNOWN): return (.other, false)
        default: return (.other, true)
        }
    }
}
