@testable import PickerEngine
import PickerProtocol
import Synchronization
import Testing

private typealias Support = LibraryTestSupport

/// `choices` and `setChoice` on a real service (no daemon): values change, only real changes are
/// announced (`choice`), a change opens a finished session again, and the refusals have their codes.
@Suite struct ServiceChoicesTests {
    @Test func setChoiceChangesAnnouncesAndRefusesWithItsCodes() throws {
        try Support.withTemporaryTree { root in
            let heard = Mutex<[SessionChange]>([])
            let service = PickerService(configuration: EngineConfiguration(libraryRoot: root, stateDirectory: nil, serverVersion: "test"),
                                        events: { if case .session(let c, _) = $0 { heard.withLock { $0.append(c) } } })
            let new = NewSession(name: "s", width: 100, height: nil, choices: [ChoiceRulesTests.box, ChoiceRulesTests.list])
            guard case .session = service.handle(.sessionNew(new)) else { Issue.record("no session"); return }
            #expect(service.handle(.choices(session: "s")) == .choices([ChoiceRulesTests.box, ChoiceRulesTests.list]))

            var expected = ChoiceRulesTests.list
            expected.value = "latin1"
            #expect(service.handle(.setChoice(session: "s", id: "encoding", value: "latin1")) == .choices([ChoiceRulesTests.box, expected]))
            _ = service.handle(.setChoice(session: "s", id: "encoding", value: "latin1"))  // the same value: no event
            #expect(heard.withLock { $0 } == [.created, .choice])

            try service.sessions.update("s") { (s: inout Session) throws(PickerError) in s.finished = SessionOutcome.accepted.rawValue }
            _ = service.handle(.setChoice(session: "s", id: "compress", value: "false"))
            #expect(try service.sessions.get("s").finished == nil, "a choice changed opens a finished session again")

            for (request, code) in [(Request.setChoice(session: "s", id: "nope", value: "true"), ErrorCode.noSuchChoice),
                                    (.setChoice(session: "s", id: "compress", value: "1"), .invalidArgument),
                                    (.setChoice(session: "x", id: "compress", value: "true"), .noSuchSession),
                                    (.choices(session: "x"), .noSuchSession)] {
                guard case .error(let e) = service.handle(request) else { Issue.record("\(request) was not refused"); continue }
                #expect(e.code == code, "\(request): \(e)")
            }
        }
    }
}
