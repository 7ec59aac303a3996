/// Test-only job kinds: a worker that crashes, spins, allocates past its cap, opens a path or a
/// socket, or answers with pixels the daemon must not trust (no memfd, a bad channel count, a
/// memfd of the wrong size, an impossible picture size, nothing), as a compromised or broken
/// decoder would. The daemon sends them only in debug builds
/// with `PICKERD_TEST_MISBEHAVE=1` in its environment, for photos named `misbehave-<kind>.*`
/// (the containment tests); a release worker answers them with an `.internal` error.
public enum DecoderMisbehaviour: UInt8, Sendable, CaseIterable {
    case crash = 100
    case spin = 101
    case allocate = 102
    case open = 103
    case socket = 104
    case noMemfd = 105
    case badChannels = 106
    case shortMemfd = 107
    case hugeSize = 108
    case nothing = 109

    var name: String {
        switch self {
        case .crash: return "crash"
        case .spin: return "spin"
        case .allocate: return "allocate"
        case .open: return "open"
        case .socket: return "socket"
        case .noMemfd: return "nomemfd"
        case .badChannels: return "channels"
        case .shortMemfd: return "short"
        case .hugeSize: return "huge"
        case .nothing: return "nothing"
        }
    }

    /// The misbehaviour a test photo's name asks for, in debug builds with the switch on; nil otherwise.
    static func requested(byPhotoNamed name: String, enabled: Bool) -> DecoderMisbehaviour? {
        #if DEBUG
        guard enabled, name.hasPrefix("misbehave-") else { return nil }
        let word = name.dropFirst("misbehave-".count).prefix(while: { $0 != "." && $0 != "-" })
        return allCases.first { $0.name == word }
        #else
        return nil
        #endif
    }
}
