#if canImport(Glibc)
import Glibc
#endif

/// What `fstat`/`fstatat` said about a file: its kind, identity, size and modification time.
public struct FileStatus: Equatable, Sendable {
    /// The file's identity: device and inode.
    public var identity: FileIdentity
    public var size: Int64
    public var mtimeSeconds: Int64
    public var mtimeNanoseconds: Int64
    public var kind: Kind
    /// Owner uid and permission bits (the low 12 bits of `st_mode`).
    public var owner: UInt32
    public var permissions: UInt32

    public enum Kind: Equatable, Sendable {
        case regular, directory, symlink, other
    }

    public init(_ st: stat) {
        identity = FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
        size = Int64(st.st_size)
        mtimeSeconds = Int64(st.st_mtim.tv_sec)
        mtimeNanoseconds = Int64(st.st_mtim.tv_nsec)
        owner = UInt32(st.st_uid)
        permissions = UInt32(st.st_mode) & 0o7777
        switch UInt32(st.st_mode) & 0o170000 {
        case 0o100000: kind = .regular
        case 0o040000: kind = .directory
        case 0o120000: kind = .symlink
        default: kind = .other
        }
    }

    /// Identity, size and modification time: what a cache keys a file's contents by.
    public var version: FileVersion {
        FileVersion(identity: identity, size: size, mtimeSeconds: mtimeSeconds, mtimeNanoseconds: mtimeNanoseconds)
    }

    public var isRegular: Bool { kind == .regular }
    public var isDirectory: Bool { kind == .directory }
    public var isSymlink: Bool { kind == .symlink }
}

/// A file's identity on this machine: device and inode. Two opens that give the same identity
/// opened the same file, whatever path led there.
public struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
    public var device: UInt64
    public var inode: UInt64
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
    public var description: String { "\(device):\(inode)" }
}

/// One version of one file: the same identity, size and modification time mean the same bytes
/// (short of a writer that restores the mtime by hand). Cache keys use it.
public struct FileVersion: Hashable, Sendable {
    public var identity: FileIdentity
    public var size: Int64
    public var mtimeSeconds: Int64
    public var mtimeNanoseconds: Int64
    public init(identity: FileIdentity, size: Int64, mtimeSeconds: Int64, mtimeNanoseconds: Int64) {
        self.identity = identity
        self.size = size
        self.mtimeSeconds = mtimeSeconds
        self.mtimeNanoseconds = mtimeNanoseconds
    }
}
