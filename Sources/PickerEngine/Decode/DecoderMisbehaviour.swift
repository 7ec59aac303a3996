/// Test-only job kinds: a worker that crashes, spins, allocates past its cap, opens a path or a
/// socket, as a compromised or broken decoder would. The daemon sends them only in debug builds
/// with `PICKERD_TEST_MISBEHAVE=1` in its environment, for photos named `misbehave-<kind>.*`
/// (the containment tests); a release worker answers them with an `.internal` error.
public enum DecoderMisbehaviour: UInt8, Sendable, CaseIterable {
    case crash = 100
    case spin = 101
    case allocate = 102
    case open = 103
    case socket = 104

    var name: String {
        switch self {
        case .crash: return "crash"
        case .spin: return "spin"
        case .allocate: return "allocate"
        case .open: return "open"
        case .socket: return "socket"
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
