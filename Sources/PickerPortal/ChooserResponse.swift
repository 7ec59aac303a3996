/// The answer to `OpenFile`: a response code and the results `a{sv}`.
public struct ChooserResponse: Equatable, Sendable {
    /// 0 success, 1 cancelled by the user, 2 ended another way (Close, an error, not ours).
    public var code: UInt32
    public var results: DBusValue

    public static let success: UInt32 = 0
    public static let cancelled: UInt32 = 1
    public static let other: UInt32 = 2

    public static var cancel: ChooserResponse { ChooserResponse(code: cancelled, results: .vardict([])) }
    public static var ended: ChooserResponse { ChooserResponse(code: other, results: .vardict([])) }

    /// The picks that pass the plan's filters, in pick order, as `file://` URIs, with `current_filter`
    /// and `choices`; nothing left is a cancel (no photo was chosen).
    /// - Parameter values: each choice's value in the session when it was accepted, by id; a choice
    ///   missing there (a daemon from before choices) answers its initial value.
    public static func accepted(_ paths: [String], plan: PickPlan, values: [String: String] = [:]) -> ChooserResponse {
        let kept = passing(paths, plan: plan)
        if kept.isEmpty { return .cancel }
        var results: [(String, DBusValue)] = [("uris", .array(element: "s", kept.map { .string(FileURI.from(path: $0)) }))]
        if let filter = plan.replyFilter { results.append(("current_filter", filter.value)) }
        if !plan.choices.isEmpty {
            results.append(("choices", .array(element: "(ss)", plan.choices.map { .structure([.string($0.id), .string(values[$0.id] ?? $0.answer)]) })))
        }
        return ChooserResponse(code: success, results: .vardict(results))
    }

    /// The paths the plan's filters let through, in their order: what `accepted` answers with.
    public static func passing(_ paths: [String], plan: PickPlan) -> [String] {
        paths.filter { path in plan.filters.isEmpty || plan.filters.contains { $0.matches(fileName: fileName(path)) } }
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// `file://` URIs as GLib's g_filename_to_uri writes them: bytes outside the unreserved set and
/// `!$&'()*+,;=:@/` percent-encoded.
public enum FileURI {
    public static func from(path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            if isKept(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return out
    }

    private static func isKept(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=:@/".utf8.contains(b)
        }
    }
}
