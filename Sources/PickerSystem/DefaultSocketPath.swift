#if canImport(Glibc)
import Glibc
#endif

/// Where pickerd listens when no `--socket` is given (SPEC):
/// `$PICKER_SOCKET`, else `$XDG_RUNTIME_DIR/pickerd.sock`, else `/tmp/pickerd-$UID/pickerd.sock`.
public enum DefaultSocketPath {
    public static func resolve(environment: [String: String] = Environment.current) -> String {
        if let p = environment["PICKER_SOCKET"], !p.isEmpty { return p }
        if let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty { return dir + "/pickerd.sock" }
        return fallbackDirectory + "/pickerd.sock"
    }

    /// `/tmp/pickerd-$UID`, created 0700 by the daemon.
    public static var fallbackDirectory: String { "/tmp/pickerd-\(getuid())" }

    /// Whether `path` lies in the `/tmp` fallback folder, where another user could have come first.
    public static func isInFallbackDirectory(_ path: String) -> Bool {
        path.hasPrefix(fallbackDirectory + "/")
    }

    /// Why the fallback folder cannot be trusted, or nil when it is a real folder (not a symlink)
    /// owned by this user with no group or other permission bits, or does not exist (then nobody
    /// listens in it). Uses lstat(2).
    public static func fallbackDirectoryProblem(_ dir: String = fallbackDirectory) -> String? {
        var st = stat()
        guard lstat(dir, &st) == 0 else {
            let e = Errno.current
            return e == .noEntry ? nil : "cannot check \(dir): \(e)"
        }
        if st.st_mode & S_IFMT != S_IFDIR {
            return "\(dir) is not a real folder (a symlink or another kind of file)"
        }
        if st.st_uid != getuid() {
            return "\(dir) belongs to uid \(st.st_uid), not to you (uid \(getuid()))"
        }
        if st.st_mode & 0o077 != 0 {
            return "\(dir) has mode \(String(st.st_mode & 0o7777, radix: 8)); it must be 700 (no access for group or others)"
        }
        return nil
    }
}

/// The process environment as a dictionary, read without Foundation.
public enum Environment {
    public static var current: [String: String] {
        var out: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") {
                out[String(s[..<eq])] = String(s[s.index(after: eq)...])
            }
            p += 1
        }
        return out
    }
}
