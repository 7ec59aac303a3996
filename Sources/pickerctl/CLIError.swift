import PickerClient
import PickerProtocol

/// pickerctl's exit codes (SPEC).
enum ExitCode: Int32 {
    case ok = 0
    case failure = 1
    case usage = 2
    case nothingSelected = 3
    case notFound = 4
    case unreachable = 5

    /// What each code means, for `--help` and the man page.
    var meaning: String {
        switch self {
        case .ok: return "ok"
        case .failure: return "error"
        case .usage: return "usage"
        case .nothingSelected: return "nothing selected"
        case .notFound: return "no such album/photo/session/page"
        case .unreachable: return "cannot reach the daemon (or it went away)"
        }
    }

    static let all: [ExitCode] = [.ok, .failure, .usage, .nothingSelected, .notFound, .unreachable]
}

/// Everything that ends a pickerctl run early: a message for stderr and an exit code.
struct CLIError: Error {
    var message: String
    var exitCode: ExitCode

    static func usage(_ message: String) -> CLIError { CLIError(message: message, exitCode: .usage) }

    init(message: String, exitCode: ExitCode) {
        self.message = message
        self.exitCode = exitCode
    }

    init(_ error: ClientError) {
        switch error {
        // A daemon that went away mid-command is as unreachable as one that was never there (SPEC: exit 5).
        case .cannotConnect, .untrustedServer, .connectionLost:
            self.init(message: error.description, exitCode: .unreachable)
        case .server(let e):
            self.init(message: ErrorHints.message(for: e), exitCode: CLIError.exitCode(for: e.code))
        }
    }

    static func exitCode(for code: ErrorCode) -> ExitCode {
        switch code {
        case .nothingSelected: return .nothingSelected
        case .noSuchAlbum, .noSuchPhoto, .noSuchSession, .noSuchChoice: return .notFound
        default: return .failure
        }
    }
}
