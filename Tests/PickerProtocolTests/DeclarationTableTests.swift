import Foundation
import PickerProtocol
import Testing

/// The clients' tables come from the Swift declaration (issue 22 item 4): `docs/protocol-tables.json`
/// is the declaration written as JSON (message numbers, names and directions, error codes, photo and
/// output formats, session changes), and this test proves the checked-in file equal to it. The Python,
/// Lua and Elisp suites compare their own tables with that file, so a drift on either side fails a test.
@Suite struct DeclarationTableTests {
    static let path = URL(fileURLWithPath: ProtocolDocument.path).deletingLastPathComponent()
        .appendingPathComponent("protocol-tables.json").path

    /// The declaration as JSON text, one entry a line, in wire order (stable, so a diff reads well).
    static func rendered() -> String {
        func quote(_ s: String) -> String { "\"" + s + "\"" }
        func section(_ name: String, _ rows: [String], last: Bool = false) -> String {
            "  \(quote(name)): {\n" + rows.map { "    " + $0 }.joined(separator: ",\n") + "\n  }" + (last ? "\n" : ",\n")
        }
        let requests = Set(RequestDeclaration.all.map(\.type))
        let replies = Set(ReplyDeclaration.all.map(\.type))
        let messages = MessageType.allCases.map { t -> String in
            let direction = requests.contains(t) ? "request" : replies.contains(t) ? "reply" : "event"
            return "\(quote(String(t.rawValue))): {\"name\": \(quote("\(t)")), \"direction\": \(quote(direction))}"
        }
        return "{\n"
            + section("messages", messages)
            + section("errors", ErrorCode.allCases.map { "\(quote(String($0.rawValue))): \(quote($0.name))" })
            + section("photo_formats", PhotoFormat.known.map { "\(quote(String($0.rawValue))): \(quote($0.shortName))" })
            + section("output_formats", ImageFormat.allCases.map { "\(quote(String($0.rawValue))): \(quote($0.optionName))" })
            + section("session_changes", SessionChange.allCases.map { "\(quote(String($0.rawValue))): \(quote($0.name))" },
                      last: true)
            + "}\n"
    }

    @Test func theCheckedInTablesAreTheDeclaration() throws {
        let file = try String(contentsOfFile: Self.path, encoding: .utf8)
        let expected = Self.rendered()
        #expect(file == expected, "docs/protocol-tables.json is not the declaration; it should read:\n\(expected)")
        // And it is JSON the clients can read.
        #expect((try? JSONSerialization.jsonObject(with: Data(file.utf8))) != nil)
    }
}
