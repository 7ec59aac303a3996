import PickerEngine
import PickerSystem

/// pickerd's settings, from the command line and the environment.
public struct DaemonConfiguration: Sendable, Equatable {
    public var libraryRoot: String
    public var socketPath: String
    public var cacheMB: Int
    /// Where sessions are saved; nil when no safe default exists (then they are kept in memory only).
    public var stateDirectory: String?
    public var maxMegapixels: Int
    /// `$XDG_CACHE_HOME` (else `~/.cache`) for freedesktop thumbnails; nil when `--no-shared-thumbnails`.
    public var thumbnailCacheHome: String?
    /// The budget for decode and render work running at once, in MiB (`--memory-mb`).
    public var memoryMB: Int = 1024
    /// Where the library index is kept: `$XDG_CACHE_HOME/pickerd` (else `~/.cache/pickerd`); nil: no index.
    public var indexDirectory: String?
    /// Worker threads for request work (`--workers`; default: the cores).
    public var workers: Int = WorkerPool.defaultWorkers
    /// Whether neighbouring photos are rendered ahead while a session looks (`--no-prefetch`).
    public var prefetch = true
    /// `--show-raw-pairs`: both files of a RAW+JPEG pair are listed (by default the JPEG stands for both).
    public var showsRawPairs = false
    /// `--ready-fd`: the descriptor told `listening` and `scanned` (nil: none).
    public var readyFD: Int32?
    /// Seconds after which a connection with no subscription and nothing going on is closed
    /// (`--idle-timeout`; 0: never), so one client cannot hold all 256 places.
    public var idleTimeoutSeconds = 60
    /// `--decode-in-process`: decode in the daemon's threads instead of sandboxed worker processes (debugging).
    public var decodeInProcess = false
    /// `--decode-seconds`: a decode's deadline before its worker is killed, plus 0.25 s per megapixel.
    public var decodeSeconds = 10

    public init(libraryRoot: String, socketPath: String, cacheMB: Int, stateDirectory: String?, maxMegapixels: Int,
                thumbnailCacheHome: String?) {
        self.libraryRoot = libraryRoot
        self.socketPath = socketPath
        self.cacheMB = cacheMB
        self.stateDirectory = stateDirectory
        self.maxMegapixels = maxMegapixels
        self.thumbnailCacheHome = thumbnailCacheHome
    }

    /// `$XDG_CACHE_HOME`, else `~/.cache`; nil (no shared thumbnails) when neither is an absolute
    /// path. Never a shared folder such as /tmp, where another user could plant files first.
    public static func defaultCacheHome(_ env: [String: String]) -> String? {
        if let p = env["XDG_CACHE_HOME"], p.hasPrefix("/") { return p }
        return absoluteHome(env).map { $0 + "/.cache" }
    }

    /// Library root by SPEC: `--library`, else `$PICKER_LIBRARY`, else the XDG pictures folder, else `~/Pictures`.
    public static func defaultLibrary(_ env: [String: String]) -> String {
        if let p = env["PICKER_LIBRARY"], !p.isEmpty { return p }
        if let p = env["XDG_PICTURES_DIR"], !p.isEmpty { return expandHome(p, env) }
        let home = env["HOME"] ?? "/"
        if let p = xdgUserDir("PICTURES", env: env), !p.isEmpty { return p }
        return home + "/Pictures"
    }

    /// `$XDG_STATE_HOME/pickerd`, else `~/.local/state/pickerd`; nil when neither is an absolute
    /// path: the daemon then says so and keeps sessions in memory only, never under /tmp.
    public static func defaultStateDirectory(_ env: [String: String]) -> String? {
        if let p = env["XDG_STATE_HOME"], p.hasPrefix("/") { return p + "/pickerd" }
        return absoluteHome(env).map { $0 + "/.local/state/pickerd" }
    }

    /// `$HOME` without a trailing slash, when it is an absolute path other than "/".
    static func absoluteHome(_ env: [String: String]) -> String? {
        guard let home = env["HOME"], home.hasPrefix("/") else { return nil }
        let trimmed = home.hasSuffix("/") ? String(home.dropLast()) : home
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Reads `XDG_<NAME>_DIR="..."` from `~/.config/user-dirs.dirs`, as xdg-user-dir does.
    static func xdgUserDir(_ name: String, env: [String: String]) -> String? {
        let config = env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((env["HOME"] ?? "/") + "/.config")
        guard let text = readSmallTextFile(config + "/user-dirs.dirs") else { return nil }
        for line in text.split(separator: "\n") {
            let prefix = "XDG_\(name)_DIR="
            guard line.hasPrefix(prefix) else { continue }
            var value = String(line.dropFirst(prefix.count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return expandHome(value.replacingOccurrences(of: "$HOME", with: env["HOME"] ?? ""), env)
        }
        return nil
    }

    static func expandHome(_ p: String, _ env: [String: String]) -> String {
        p.hasPrefix("~/") ? (env["HOME"] ?? "") + p.dropFirst() : p
    }
}
