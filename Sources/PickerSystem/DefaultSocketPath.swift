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
