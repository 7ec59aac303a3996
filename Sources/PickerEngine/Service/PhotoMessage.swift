import PickerProtocol

/// The session's message line for a photo: "4032x3024 px, 3.1 MB, JPEG" ("RAW (CR2)" for a RAW).
enum PhotoMessage {
    static func text(width: Int, height: Int, bytes: Int64, formatName: String) -> String {
        "\(width)x\(height) px, \(humanBytes(bytes)), \(formatName)"
    }

    /// The message for a photo known not to decode: "cannot be shown: corrupt JPEG data: …".
    static func broken(_ reason: String) -> String {
        "cannot be shown: \(reason)"
    }

    /// Decimal units, one decimal place above 1 kB: what file managers show.
    static func humanBytes(_ n: Int64) -> String {
        if n < 1000 { return "\(n) bytes" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(n) / 1000
        var unit = 0
        while value >= 999.95 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
