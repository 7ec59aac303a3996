/// The release, declared once: pickerd sends `serverVersion` in `helloReply` and `pong`, both
/// binaries print `version`, and the vectors in docs/PROTOCOL.md are checked against it.
public enum Release {
    /// `0.1.0`
    public static let version = "0.1.0"
    /// What pickerd puts in `server_version`: `pickerd 0.1.0`.
    public static let serverVersion = "pickerd \(version)"
}
