import Foundation
import PickerProtocol
import Testing

/// One hex example from docs/PROTOCOL.md.
struct DocVector: Sendable, CustomTestStringConvertible {
    /// The text after `vector:` or `refused:` in the marker comment.
    var label: String
    var bytes: [UInt8]
    /// The block's lines as written, between the fences.
    var text: String
    var line: Int
    var testDescription: String { "\(label) (PROTOCOL.md line \(line))" }
    /// The label's first word: a message type name for vectors, an error name for refusals.
    var firstWord: String { String(label.split(separator: " ").first ?? "") }
}

/// docs/PROTOCOL.md, found from this file's path (Tests/PickerProtocolTests/… → package root).
enum ProtocolDocument {
    static let path: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/docs/PROTOCOL.md"
    }()

    static let text: String = {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }()

    static let vectors: [DocVector] = blocks(marker: "vector:")
    static let refusals: [DocVector] = blocks(marker: "refused:")
    /// Frames with an extension area ("Extending a message"); clients from before the rule do not read them.
    static let extended: [DocVector] = blocks(marker: "extended:")

    /// Problems found while parsing (a marker without a hex block, a bad hex pair); tests expect none.
    static let parseProblems: [String] = {
        var problems: [String] = []
        _ = scan(marker: "vector:", problems: &problems)
        _ = scan(marker: "refused:", problems: &problems)
        _ = scan(marker: "extended:", problems: &problems)
        return problems
    }()

    private static func blocks(marker: String) -> [DocVector] {
        var ignored: [String] = []
        return scan(marker: marker, problems: &ignored)
    }

    /// Finds `<!-- MARKER label -->` lines followed by a ```hex fence and collects the bytes.
    private static func scan(marker: String, problems: inout [String]) -> [DocVector] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var out: [DocVector] = []
        var i = 0
        while i < lines.count {
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            let open = "<!-- " + marker
            guard line.hasPrefix(open), line.hasSuffix("-->") else {
                i += 1
                continue
            }
            let label = String(line.dropFirst(open.count).dropLast(3)).trimmingCharacters(in: .whitespaces)
            let markerLine = i + 1
            guard i + 1 < lines.count, lines[i + 1].trimmingCharacters(in: .whitespaces) == "```hex" else {
                problems.append("line \(markerLine): '\(label)' is not followed by a ```hex block")
                i += 1
                continue
            }
            var j = i + 2
            var body: [String] = []
            while j < lines.count, lines[j].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(lines[j])
                j += 1
            }
            if let b = bytes(hex: body.joined(separator: "\n")) {
                out.append(DocVector(label: label, bytes: b, text: body.joined(separator: "\n"), line: markerLine))
            } else {
                problems.append("line \(markerLine): '\(label)' has a token that is not a hex pair")
            }
            i = j + 1
        }
        return out
    }
}
