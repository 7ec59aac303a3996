import Foundation
import PickerClient
import PickerProtocol
import Testing

/// A session's choices (the host app's toggles) driven with `pickerctl` against a live pickerd: the
/// session is made as pickerd-portal makes it (`sessionNew` with its extension), then listed, set,
/// refused, announced, shown by `status`, and kept across a restart.
@Suite(.timeLimit(.minutes(10))) struct ChoiceCommandTests {
    static let hostChoices = [
        SessionChoice(id: "compress", label: "Compress", value: "true"),
        SessionChoice(id: "encoding", label: "Encoding",
                      options: [.init(id: "utf8", label: "UTF-8"), .init(id: "latin1", label: "Latin-1")], value: "utf8"),
    ]

    private func hostSession(_ daemon: LiveDaemon) throws {
        let host = try PickerConnection(socketPath: daemon.socketPath, clientName: "host app")
        _ = try host.call(.sessionNew(NewSession(name: "host", width: 640, height: 480, title: "Upload", choices: Self.hostChoices)))
    }

    @Test func setChoiceChangesTheValuesStatusShowsThemAndARestartKeepsThem() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Trip")
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        try hostSession(daemon)

        let listed = try await daemon.ctl("choices", session: "host")
        #expect(listed.exitCode == 0 && listed.stdoutText == """
            compress = true  Compress  (true/false)
            encoding = utf8  Encoding  [*utf8 (UTF-8), latin1 (Latin-1)]

            """, "\(listed)")

        // A watcher hears each change as the session change `choice`; the same value again is no change.
        let listener = try PickerConnection(socketPath: daemon.socketPath, clientName: "listener")
        let sub = try listener.send(.subscribe(Subscription(session: "host", library: false)))
        #expect(try listener.receive(id: sub) == .subscribed(Subscription(session: "host", library: false)))
        for (id, value) in [("compress", "false"), ("encoding", "latin1"), ("encoding", "latin1")] {
            let r = try await daemon.ctl("set-choice", id, value, session: "host")
            #expect(r.exitCode == 0, "\(id) \(value): \(r)")
        }
        let ping = try listener.send(.ping)
        var changes: [SessionChange] = []
        while true {
            let frame = try listener.nextFrame()
            if !frame.isEvent, frame.requestID == ping { break }
            if frame.isEvent, case .session(let change, _) = try Event(frame: frame) { changes.append(change) }
        }
        #expect(changes == [.choice, .choice], "\(changes)")

        // Refusals with their codes: no such id (exit 4, the hint names `choices`), a value not offered (1), no VALUE (2).
        let unknown = try await daemon.ctl("set-choice", "nope", "true", session: "host")
        #expect(unknown.exitCode == 4 && unknown.stderr.contains("no choice 'nope'") && unknown.stderr.contains("pickerctl choices"), "\(unknown)")
        let wrong = try await daemon.ctl("set-choice", "compress", "maybe", session: "host")
        #expect(wrong.exitCode == 1 && wrong.stderr.contains("true, false"), "\(wrong)")
        let list = try await daemon.ctl("set-choice", "encoding", "cp1252", session: "host")
        #expect(list.exitCode == 1 && list.stderr.contains("'cp1252' is not a value of choice 'encoding' (utf8, latin1)"), "\(list)")
        let short = try await daemon.ctl("set-choice", "compress", session: "host")
        #expect(short.exitCode == 2, "\(short)")

        let status = try await daemon.ctl("status", session: "host")
        #expect(status.stdoutText.contains("choice:    compress = false  Compress  (true/false)\n"
                                           + "choice:    encoding = latin1  Encoding  [utf8 (UTF-8), *latin1 (Latin-1)]"), "\(status)")
        let statusJSON = try JSONSerialization.jsonObject(with: try await daemon.ctl("status", "--json", session: "host").stdout) as? [String: Any]
        let choices = statusJSON?["choices"] as? [[String: Any]] ?? []
        #expect(choices.map { $0["value"] as? String } == ["false", "latin1"], "\(statusJSON ?? [:])")
        #expect(choices.map { $0["check_box"] as? Bool } == [true, false])

        // Saved with the session before set-choice answered: a daemon killed outright (no shutdown save)
        // comes back with the values the user set.
        await daemon.stop(signal: SIGKILL)
        try await daemon.start()
        let after = try await daemon.ctl("choices", "--json", session: "host")
        let values = (try JSONSerialization.jsonObject(with: after.stdout) as? [[String: Any]])?.map { $0["value"] as? String }
        #expect(values == ["false", "latin1"], "\(after)")
    }

    @Test func aSessionWithoutChoicesListsNoneAndItsStatusIsAsBefore() async throws {
        let library = try await TemporaryLibrary()
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        await #expect(try daemon.ctl("session", "new", "plain", "--width", "300").exitCode == 0)
        let none = try await daemon.ctl("choices", session: "plain")
        #expect(none.exitCode == 0 && none.stdoutText == "no choices in session 'plain'\n", "\(none)")
        let status = try await daemon.ctl("status", session: "plain")
        #expect(!status.stdoutText.contains("choice"), "\(status)")
        let json = try JSONSerialization.jsonObject(with: try await daemon.ctl("status", "--json", session: "plain").stdout) as? [String: Any]
        #expect(json?["choices"] == nil && json?["session"] as? String == "plain")
        let set = try await daemon.ctl("set-choice", "x", "true", session: "plain")
        #expect(set.exitCode == 4 && set.stderr.contains("it has none"), "\(set)")
        let missing = try await daemon.ctl("choices", session: "nobody")
        #expect(missing.exitCode == 4, "\(missing)")
    }
}
