#if canImport(Glibc)
import Glibc
#endif
import PickerProtocol
import PickerSystem

/// pickerd-portal's command line: `[--socket PATH] [--replace]`, `--help`, `--version`.
public enum PortalCommandLine {
    public enum Action: Equatable {
        case run(socket: String?, replace: Bool)
        case help
        case version
        case man
    }

    public static let version = Release.version

    /// What pickerd-portal is, paragraph by paragraph (--help and the man page).
    static let description = [
        "The xdg-desktop-portal FileChooser backend of pickerd (D-Bus name org.freedesktop.impl.portal.desktop.pickerd, "
            + "FileChooser version 3). An app's Open dialog becomes a pickerd session, served by `pickerctl pick` in a "
            + "terminal window; the app gets the picks as file:// URIs in pick order (response 0), 1 when the pick is "
            + "cancelled, 2 when the request is closed.",
        "What is not a photo pick (saving, a folder, filters that pass no photo) is forwarded to the desktop's own "
            + "FileChooser backend, the one the frontend would use without pickerd (its portal files and XDG_CURRENT_DESKTOP, "
            + "pickerd left out), or the one PICKERD_PORTAL_FORWARD or `forward = NAME` in portal.conf names (a portal file's "
            + "name such as gtk, a D-Bus name, or none); its answer goes back to the app unchanged. With none, SaveFile "
            + "is a plain prompt in the terminal (folder, name, replace? y/N; Ctrl-D cancels) and the rest is answered 2.",
        "The terminal: PICKERD_PORTAL_TERMINAL, else `terminal = …` in $XDG_CONFIG_HOME/pickerd/portal.conf, else "
            + "$TERMINAL (with -e), else the first found of foot, kitty, alacritty, wezterm, gnome-terminal, konsole, "
            + "x-terminal-emulator, xterm. The pick command's words are appended (`terminal = tmux new-window` works too). "
            + "pickerctl: PICKERD_PORTAL_PICKERCTL or `pickerctl = …`, else the one beside this program, else PATH.",
        "Setup on Debian 12 (portal 1.16) and on 1.17 and later: docs/PORTAL.md.",
    ]

    static let options = [
        ("--socket PATH", "pickerd's socket (default: $PICKER_SOCKET, else $XDG_RUNTIME_DIR/pickerd.sock)"),
        ("--replace", "take the bus name from a running pickerd-portal"),
        ("--help, --version, --man", "this text, the version, the man page"),
    ]

    public static var usage: String {
        "Usage: pickerd-portal [--socket PATH] [--replace]\n\n"
            + description.map { wrap($0) }.joined(separator: "\n\n")
            + "\n\nOptions:\n" + options.map { "  " + $0.0.padding(26) + $0.1 }.joined(separator: "\n") + "\n"
    }

    /// `text` in lines of at most 100 columns.
    static func wrap(_ text: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > 100 { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    public static func parse(_ args: [String]) throws(PortalUsageError) -> Action {
        var socket: String?
        var replace = false
        var i = 0
        while i < args.count {
            let arg = args[i]
            switch arg {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--man": return .man
            case "--replace": replace = true
            case "--socket":
                guard i + 1 < args.count else { throw PortalUsageError(message: "--socket needs a PATH") }
                socket = args[i + 1]
                i += 1
            default:
                if arg.hasPrefix("--socket=") { socket = String(arg.dropFirst("--socket=".count)) } else {
                    throw PortalUsageError(message: "unknown argument '\(InertText.escaped(arg))'")
                }
            }
            i += 1
        }
        return .run(socket: socket, replace: replace)
    }

    /// The configuration for a run: environment, portal.conf, this program's folder.
    public static func configuration(socket: String?, replace: Bool) -> PortalConfiguration {
        let env = Environment.current
        let configHome = env["XDG_CONFIG_HOME"] ?? ((env["HOME"] ?? "") + "/.config")
        let text = try? SmallText.read(configHome + "/pickerd/portal.conf")
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        let folder = exe.flatMap { path in path.lastIndex(of: "/").map { String(path[..<$0]) } }
        return PortalConfiguration.resolve(environment: env, configText: text, socket: socket,
                                           executableDirectory: folder, replace: replace)
    }
}

public struct PortalUsageError: Error {
    public let message: String
}

/// A small text file read whole (portal.conf).
enum SmallText {
    static func read(_ path: String) throws(SystemError) -> String {
        let fd = try FileSystem.open(path: path, flags: O_RDONLY)
        defer { FileSystem.close(fd) }
        return String(decoding: try FileSystem.read(fd, at: 0, count: 1 << 16), as: UTF8.self)
    }
}

private extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
