import Foundation

/// A home folder for `pickerctl portal setup|doctor|remove`: its own XDG config and data folders,
/// empty system config/data lists, a runtime folder and no session bus unless one is given.
struct PortalSetupHome {
    let directory: URL

    init() throws {
        directory = URL(fileURLWithPath: "/tmp/pkps-\(UUID().uuidString.prefix(8))")
        for sub in ["config", "data", "run", "sysconfig", "sysdata"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
    }

    var config: URL { directory.appendingPathComponent("config") }
    var data: URL { directory.appendingPathComponent("data") }
    var dropIn: URL { config.appendingPathComponent("systemd/user/xdg-desktop-portal.service.d/pickerd.conf") }
    var userPortals: URL { data.appendingPathComponent("pickerd/portals") }

    /// The variables pickerctl runs with; `extra` wins.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ["PATH": TestEnvironment.binDirectory.path + ":/usr/bin:/bin", "HOME": directory.path,
         "XDG_CONFIG_HOME": config.path, "XDG_DATA_HOME": data.path,
         "XDG_CONFIG_DIRS": directory.appendingPathComponent("sysconfig").path,
         "XDG_DATA_DIRS": directory.appendingPathComponent("sysdata").path,
         "XDG_RUNTIME_DIR": directory.appendingPathComponent("run").path,
         "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + directory.appendingPathComponent("run/no-bus").path]
            .merging(extra) { _, given in given }
    }

    func ctl(_ args: [String], _ extra: [String: String] = [:]) async throws -> CommandResult {
        try await runProcess(TestEnvironment.pickerctl.path, args, environment: environment(extra))
    }

    /// Every file and link under the config and data folders (relative paths), and the folders.
    func tree() -> [String] {
        var out: [String] = []
        for root in [config, data] {
            let items = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
            out += items.map { root.lastPathComponent + "/" + $0 }
        }
        return out.sorted()
    }

    /// A file's bytes as text ("" when missing).
    func read(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    /// A stand-in frontend that says it is `version`, in `prefix/libexec`, with the system portal
    /// files `portals` (name → UseIn) in `prefix/share/xdg-desktop-portal/portals`.
    func fakeFrontend(version: String, portals: [String: String]) throws -> String {
        let prefix = directory.appendingPathComponent("fake")
        let portalDir = prefix.appendingPathComponent("share/xdg-desktop-portal/portals")
        try FileManager.default.createDirectory(at: portalDir, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("libexec"), withIntermediateDirectories: true)
        let binary = prefix.appendingPathComponent("libexec/xdg-desktop-portal")
        // Written through a close-on-exec descriptor: one a child spawned by a parallel test inherited
        // would keep the script open for writing, and running it would fail with ETXTBSY.
        let fd = open(binary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        let script = Array("#!/bin/sh\necho 'xdg-desktop-portal \(version)'\n".utf8)
        let written = script.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == script.count else { throw CocoaError(.fileWriteUnknown) }
        // And should a fork still catch it open: wait until it runs.
        for _ in 0..<200 where (try? runProcessBlocking(binary.path, ["--version"]).exitCode) != 0 { usleep(50_000) }
        for (name, useIn) in portals {
            try "[portal]\nDBusName=org.freedesktop.impl.portal.desktop.\(name)\nInterfaces=org.freedesktop.impl.portal.FileChooser;org.freedesktop.impl.portal.AppChooser;\nUseIn=\(useIn)\n"
                .write(to: portalDir.appendingPathComponent("\(name).portal"), atomically: true, encoding: .utf8)
        }
        return binary.path
    }

    /// What systemd would run for the drop-in: its `Environment=` variables and the last `ExecStart=`
    /// as words (`'…'`/`"…"` quoting, `$$` for `$`, `%%` for `%`, as systemd reads them).
    func dropInCommand() -> (command: [String], environment: [String: String]) {
        var env: [String: String] = [:]
        var command: [String] = []
        for line in read(dropIn).split(separator: "\n").map(String.init) {
            if line.hasPrefix("Environment=") {
                for word in Self.unitWords(String(line.dropFirst("Environment=".count))) {
                    let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
                    if parts.count == 2 { env[parts[0]] = parts[1] }
                }
            } else if line.hasPrefix("ExecStart="), line.count > "ExecStart=".count {
                command = Self.unitWords(String(line.dropFirst("ExecStart=".count)))
            }
        }
        return (command, env)
    }

    static func unitWords(_ s: String) -> [String] {
        var words: [String] = [], current = "", quote: Character?, any = false
        var chars = Array(s)[...]
        while let c = chars.popFirst() {
            if let q = quote {
                if c == q { quote = nil } else if c == "$" && chars.first == "$" { chars.removeFirst(); current.append("$") } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c; any = true
            } else if c == " " {
                if any { words.append(current) }
                current = ""; any = false
            } else if (c == "$" || c == "%") && chars.first == c {
                chars.removeFirst(); current.append(c); any = true
            } else {
                current.append(c); any = true
            }
        }
        if any { words.append(current) }
        return words
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
