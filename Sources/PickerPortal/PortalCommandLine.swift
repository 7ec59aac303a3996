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
    }

    public static let version = Release.version

    public static let usage = """
        Usage: pickerd-portal [--socket PATH] [--replace]

        The xdg-desktop-portal FileChooser backend of pickerd (D-Bus name
        org.freedesktop.impl.portal.desktop.pickerd, FileChooser version 3). An app's "Open" dialog
        becomes a pickerd session, served by `pickerctl pick` in a terminal window; the app gets the
        picks as file:// URIs (response 0), or 1 when the pick is cancelled, 2 when the request is
        closed or cannot be served (folders, filters that pass no photo, saving).

        Options:
          --socket PATH   pickerd's socket (default: $PICKER_SOCKET, else $XDG_RUNTIME_DIR/pickerd.sock)
          --replace       take the bus name from a running pickerd-portal
          --help, --version

        The terminal: PICKERD_PORTAL_TERMINAL, else `terminal = …` in $XDG_CONFIG_HOME/pickerd/portal.conf,
        else $TERMINAL (with -e), else the first found of foot, kitty, alacritty, wezterm,
        gnome-terminal, konsole, x-terminal-emulator, xterm. The pick command's words are appended
        (`terminal = tmux new-window` works too). pickerctl: PICKERD_PORTAL_PICKERCTL or
        `pickerctl = …`, else the one beside this program, else PATH.
        Setup on Debian 12 (portal 1.16) and later versions: docs/PORTAL.md.

        """

    public static func parse(_ args: [String]) throws(PortalUsageError) -> Action {
        var socket: String?
        var replace = false
        var i = 0
        while i < args.count {
            let arg = args[i]
            switch arg {
            case "--help", "-h": return .help
            case "--version": return .version
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
