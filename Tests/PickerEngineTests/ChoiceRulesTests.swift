@testable import PickerEngine
import PickerProtocol
import Testing

/// A session's choices: what `sessionNew` may carry and what `sessions.json` may restore (`ChoiceRules`).
@Suite struct ChoiceRulesTests {
    static let box = SessionChoice(id: "compress", label: "Compress", value: "true")
    static let list = SessionChoice(id: "encoding", label: "Encoding",
                                    options: [.init(id: "utf8", label: "UTF-8"), .init(id: "latin1", label: "Latin-1")], value: "utf8")

    private func refusal(_ choices: [SessionChoice]) -> PickerError? {
        do {
            _ = try Session(NewSession(name: "s", width: 100, height: nil, choices: choices))
            return nil
        } catch {
            return error
        }
    }

    @Test func aCheckBoxAndAListAreKeptWithTheSession() throws {
        let s = try Session(NewSession(name: "s", width: 100, height: nil, choices: [Self.box, Self.list]))
        #expect(s.choices == [Self.box, Self.list])
        #expect(try Session(NewSession(name: "s", width: 100, height: nil)).choices == nil, "none asked: nothing saved")
    }

    @Test func choicesBreakingARuleAreInvalidArguments() {
        var badValue = Self.box
        badValue.value = "yes"
        var notAnOption = Self.list
        notAnOption.value = "cp1252"
        var emptyID = Self.box
        emptyID.id = ""
        var escape = Self.list
        escape.label = "\u{1b}[2J"
        var twiceOption = Self.list
        twiceOption.options.append(.init(id: "utf8", label: "again"))
        let many = (0...ChoiceRules.maxChoices).map { SessionChoice(id: "c\($0)", label: "", value: "false") }
        for (choices, words) in [([badValue], "'yes' is not a value"), ([notAnOption], "(utf8, latin1)"), ([emptyID], "choice id is empty"),
                                 ([escape], "control characters"), ([Self.box, Self.box], "given twice"),
                                 ([twiceOption], "option 'utf8' of choice 'encoding' is given twice"), (many, "at most 32")] {
            let e = refusal(choices)
            #expect(e?.code == .invalidArgument && e?.message.contains(words) == true, "\(words): \(String(describing: e))")
        }
    }

    @Test func aRestoredSessionWithBrokenChoicesIsDroppedAndAnOldEntryWithoutThemIsKept() throws {
        let good = try Session(NewSession(name: "good", width: 640, height: 480, choices: [Self.list]))
        let goodJSON = try #require(String(bytes: try SavedSessions.prettyEncoder().encode(good), encoding: .utf8))
        let old = #"{"name":"old","title":"t","width":100,"maxSelection":10,"selection":[]}"#
        let tampered = #"{"name":"bad","title":"t","width":100,"maxSelection":10,"selection":[],"#
            + #""choices":[{"id":"x","label":"X","options":[],"value":"maybe"}]}"#
        let json = #"{"version":1,"sessions":["# + [goodJSON, old, tampered].joined(separator: ",") + "]}"
        let restored = try SavedSessions.decode(Array(json.utf8), from: "sessions.json")
        #expect(Set(restored.keys) == ["good", "old"])
        #expect(restored["good"]?.choices == [Self.list])
        #expect(restored["old"]?.choices == nil)
    }

    @Test func aSessionWithoutChoicesIsSavedAsBefore() throws {
        let s = try Session(NewSession(name: "s", width: 100, height: nil))
        let text = String(decoding: try SavedSessions.prettyEncoder().encode(s), as: UTF8.self)
        #expect(!text.contains("choices"))
    }
}
