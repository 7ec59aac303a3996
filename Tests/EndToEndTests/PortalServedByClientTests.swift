import Foundation
import Testing

/// A portal request is just a session: with `terminal = none` pickerd-portal opens no window and
/// answers from the session's finish event, so `pickerctl` commands alone serve the app's dialog.
@Suite(.timeLimit(.minutes(10)),
       .enabled(if: PortalHarness.available, "needs dbus-daemon, tmux and python3-dbus (scripts/install-deps.sh installs them)"))
struct PortalServedByClientTests {
    let library: PortalLibrary

    init() async throws {
        library = try await PortalLibrary()
    }

    private var kyoto: String { library.kyoto }

    /// Waits until the request's session exists (pickerd-portal made it), and returns its name.
    private func requestSession(_ daemon: LiveDaemon, _ portal: PortalHarness) async throws -> String {
        var listed = ""
        try await waitUntil("the request's session", within: 60, seen: { listed + "\nportal log:\n" + portal.portalLog }) {
            listed = try await daemon.ctl("session", "list").stdoutText
            return listed.contains("portal-org.example.App")
        }
        return "portal-org.example.App"
    }

    @Test func selectToggleAndAcceptAnswerWithTheURIsInPickOrder() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon, terminal: "none")
        // The user's recently used files, with another app's entry: pickerd-portal adds the picks to it.
        let recent = portal.directory.appendingPathComponent(".local/share/recently-used.xbel")
        try FileManager.default.createDirectory(at: recent.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.otherAppsRecentFile.write(to: recent, atomically: true, encoding: .utf8)
        let client = try portal.openFile(["--multiple", "--title", "Upload photo"])
        let session = try await requestSession(daemon, portal)
        #expect(try await portal.windowCount() == 1, "terminal = none opens no window")
        for args in [["select-album", "Kyoto"], ["toggle", "c.png"], ["toggle", "a.jpg"], ["accept"]] {
            let r = try await daemon.ctl(args: args, session: session)
            #expect(r.exitCode == 0, "\(args): \(r)")
        }
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\n\(portal.portalLog)")
        let uris = (answer["results"] as? [String: Any])?["uris"] as? [String]
        #expect(uris == [library.uri("c.png"), library.uri("a.jpg")], "\(answer)")
        // As GTK's backend does: each pick in recently-used.xbel with its type and the app; gedit's entry kept.
        let xbel = (try? String(contentsOf: recent, encoding: .utf8)) ?? ""
        for (name, type) in [("c.png", "image/png"), ("a.jpg", "image/jpeg")] {
            let entry = xbel.range(of: "href=\"\(library.uri(name))\"").map { String(xbel[$0.lowerBound...].prefix(1200)) } ?? ""
            #expect(entry.contains("<mime:mime-type type=\"\(type)\"/>") && entry.contains("name=\"org.example.App\""), "\(name) in:\n\(xbel)\n\(portal.portalLog)")
        }
        #expect(xbel.contains("href=\"file:///home/u/notes.txt\"") && xbel.contains("name=\"gedit\""), "another app's entry kept:\n\(xbel)")
        try await waitUntil("the request's session to be closed", within: 60) {
            try await !daemon.ctl("session", "list").stdoutText.contains("portal-")
        }
    }

    /// A recently-used.xbel as GTK writes it, holding one entry of another app.
    static let otherAppsRecentFile = """
        <?xml version="1.0" encoding="UTF-8"?>
        <xbel version="1.0"
              xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks"
              xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info"
        >
          <bookmark href="file:///home/u/notes.txt" added="2026-01-01T00:00:00.000000Z" modified="2026-01-01T00:00:00.000000Z" visited="2026-01-01T00:00:00.000000Z">
            <info>
              <metadata owner="http://freedesktop.org">
                <mime:mime-type type="text/plain"/>
                <bookmark:applications>
                  <bookmark:application name="gedit" exec="&apos;gedit %u&apos;" modified="2026-01-01T00:00:00.000000Z" count="1"/>
                </bookmark:applications>
              </metadata>
            </info>
          </bookmark>
        </xbel>

        """

    @Test func acceptWithNoPicksAnswersWithTheCurrentPhoto() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon, terminal: "none")
        let client = try portal.openFile([])
        let session = try await requestSession(daemon, portal)
        for args in [["select-album", "Kyoto"], ["select-photo", "b.jpg"], ["accept"]] {
            let r = try await daemon.ctl(args: args, session: session)
            #expect(r.exitCode == 0, "\(args): \(r)")
        }
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\n\(portal.portalLog)")
        #expect((answer["results"] as? [String: Any])?["uris"] as? [String] == [library.uri("b.jpg")], "\(answer)")
    }

    /// The app's choices (a check box and a list) become the session's; `pickerctl set-choice` changes them,
    /// and the Response carries the values they have when the session is accepted, not the initial ones.
    @Test func setChoiceChangesTheChoicesTheAnswerCarries() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon, terminal: "none")
        let client = try portal.openFile(["--choice", "resize=Resize=true",
                                          "--choice", "format=Format=jpeg=jpeg:JPEG,png:PNG,webp:WebP"])
        let session = try await requestSession(daemon, portal)
        let listed = try await daemon.ctl(args: ["choices"], session: session)
        #expect(listed.stdoutText.contains("resize = true  Resize") && listed.stdoutText.contains("format = jpeg  Format  [*jpeg (JPEG)"),
                "the app's choices are the session's: \(listed)\n\(portal.portalLog)")
        for args in [["set-choice", "resize", "false"], ["set-choice", "format", "webp"], ["select-album", "Kyoto"],
                     ["toggle", "a.jpg"], ["accept"]] {
            let r = try await daemon.ctl(args: args, session: session)
            #expect(r.exitCode == 0, "\(args): \(r)")
        }
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\n\(portal.portalLog)")
        let results = answer["results"] as? [String: Any] ?? [:]
        #expect(results["uris"] as? [String] == [library.uri("a.jpg")], "\(answer)")
        #expect(results["choices"] as? [[String]] == [["resize", "false"], ["format", "webp"]], "\(answer)")
    }

    /// Choices pickerd refuses (here a label with an escape) do not lose the dialog: the session is made
    /// without them (logged), and the Response carries their initial values.
    @Test func choicesPickerdRefusesAreLeftOutAndAnswerTheirInitialValues() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon, terminal: "none")
        let client = try portal.openFile(["--choice", "resize=Re\u{1b}[2Jsize=true"])
        let session = try await requestSession(daemon, portal)
        let listed = try await daemon.ctl(args: ["choices"], session: session)
        #expect(listed.stdoutText.contains("no choices"), "\(listed)")
        #expect(portal.portalLog.contains("without its choices"), "\(portal.portalLog)")
        for args in [["select-album", "Kyoto"], ["select-photo", "a.jpg"], ["accept"]] {
            let r = try await daemon.ctl(args: args, session: session)
            #expect(r.exitCode == 0, "\(args): \(r)")
        }
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\n\(portal.portalLog)")
        #expect((answer["results"] as? [String: Any])?["choices"] as? [[String]] == [["resize", "true"]], "\(answer)")
    }

    @Test func cancelAnswersOne() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon, terminal: "none")
        let client = try portal.openFile(["--multiple"])
        let session = try await requestSession(daemon, portal)
        _ = try await daemon.ctl(args: ["select-album", "Kyoto"], session: session)
        _ = try await daemon.ctl(args: ["toggle", "a.jpg"], session: session)
        let r = try await daemon.ctl(args: ["cancel"], session: session)
        #expect(r.exitCode == 0, "\(r)")
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 1, "\(answer)\n\(portal.portalLog)")
        #expect((answer["results"] as? [String: Any])?["uris"] == nil, "\(answer)")
        #expect(portal.portalIsAlive)
    }
}
