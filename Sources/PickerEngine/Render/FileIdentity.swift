#if canImport(Glibc)
import Glibc
#endif

/// A file's identity for cache keys: size and modification time, as `stat` reports them now.
struct FileIdentity: Equatable {
    var size: Int64
    var seconds: Int64
    var nanoseconds: Int64

    /// The identity of a library photo now, or nil if it cannot be stat'ed (the read that follows
    /// then reports why). Only a cache key: the read itself re-checks the path stays in the library.
    static func current(root: String, photo: Photo) -> FileIdentity? {
        var st = stat()
        guard stat(root + "/" + photo.relativePath, &st) == 0 else { return nil }
        return FileIdentity(size: Int64(st.st_size), seconds: Int64(st.st_mtim.tv_sec),
                            nanoseconds: Int64(st.st_mtim.tv_nsec))
    }
}
