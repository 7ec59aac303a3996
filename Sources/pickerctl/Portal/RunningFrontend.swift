import PickerPortalRules
import PickerSystem

/// The frontend that owns `org.freedesktop.portal.Desktop` on the session bus now, and the
/// environment it runs with (`/proc/PID/environ`): what decides which backend it asked.
struct RunningFrontend {
    var pid: Int
    var variables: [String: String]

    /// Asks the bus for the owner's pid (`GetConnectionUnixProcessID`, which activates nothing),
    /// with gdbus or dbus-send; nil when no frontend runs or there is no session bus.
    static func find(_ env: PortalEnvironment) -> RunningFrontend? {
        // No bus named and none at the usual place: ask nothing (GLib would try to autolaunch one).
        guard env["DBUS_SESSION_BUS_ADDRESS"] != nil || env["XDG_RUNTIME_DIR"].map({ PortalFiles.kind($0 + "/bus") != .missing }) == true else {
            return nil
        }
        let path = env["PATH"] ?? "/usr/bin:/bin"
        let childEnv = ["PATH=" + path] + ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "HOME"].compactMap { k in env[k].map { "\(k)=\($0)" } }
        var out: String?
        if let gdbus = ChildOutput.find("gdbus", in: path) {
            out = ChildOutput.run(gdbus, ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                          "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.freedesktop.portal.Desktop"],
                                  environment: childEnv)
        } else if let send = ChildOutput.find("dbus-send", in: path) {
            out = ChildOutput.run(send, ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                         "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.freedesktop.portal.Desktop"],
                                  environment: childEnv)
        }
        guard let out, let pid = out.split(whereSeparator: { !$0.isNumber }).last.flatMap({ Int($0) }), pid > 0 else { return nil }
        return RunningFrontend(pid: pid, variables: ProcessEnvironment.read(pid: pid) ?? [:])
    }
}

/// The `Environment=` assignments of a unit file (`NAME=value` words, `"…"` quoted, `%%` for `%`).
enum UnitEnvironment {
    static func assignments(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("Environment=") {
            for word in words(String(line.dropFirst("Environment=".count))) {
                guard let eq = word.firstIndex(of: "=") else { continue }
                out[String(word[..<eq])] = String(word[word.index(after: eq)...])
            }
        }
        return out
    }

    private static func words(_ s: String) -> [String] {
        var words: [String] = [], current = "", quoted = false, any = false
        var chars = s.makeIterator()
        while let c = chars.next() {
            if c == "\"" { quoted.toggle(); any = true } else if c == " " && !quoted {
                if any { words.append(current) }
                current = ""; any = false
            } else if c == "%" {
                if let next = chars.next() { current.append(next == "%" ? "%" : next) }
                any = true
            } else { current.append(c); any = true }
        }
        if any { words.append(current) }
        return words
    }
}
