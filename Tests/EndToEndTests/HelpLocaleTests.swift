import Foundation
import Testing

/// `--help` in the locale's character set (issue 24): a terminal in the C or a Latin-1 locale shows
/// pick's arrows and marks as their ASCII, with the key column still lined up; a UTF-8 one as written.
@Suite struct HelpLocaleTests {
    private func pickHelp(_ locale: [String: String]) async throws -> String {
        let r = try await runProcess(TestEnvironment.pickerctl.path, ["pick", "--help"],
                                     environment: ["PATH": "/usr/bin:/bin"].merging(locale) { $1 })
        #expect(r.exitCode == 0, "\(r)")
        return r.stdoutText
    }

    @Test(arguments: [["LC_ALL": "C"], ["LANG": "en_US.ISO-8859-1"], [:]])
    func inALocaleThatIsNotUTF8TheHelpIsASCII(locale: [String: String]) async throws {
        let help = try await pickHelp(locale)
        #expect(help.utf8.allSatisfy { $0 < 0x80 }, "\(help.unicodeScalars.filter { !$0.isASCII })")
        let lines = help.split(separator: "\n")
        let switchLine = try #require(lines.first { $0.contains("switch pane") })
        let enterLine = try #require(lines.first { $0.hasPrefix("  Enter ") })
        #expect(switchLine.hasPrefix("  Tab, -> l, <- h "), "\(switchLine)")
        #expect(switchLine.firstRange(of: "switch pane")?.lowerBound.utf16Offset(in: switchLine)
                    == enterLine.firstRange(of: "on an album")?.lowerBound.utf16Offset(in: enterLine),
                "the description column stays where it is")
        #expect(help.contains("(1...1000;"))
    }

    @Test func inAUTF8LocaleTheHelpIsAsWritten() async throws {
        let help = try await pickHelp(["LANG": "C.UTF-8"])
        #expect(help.contains("Tab, → l, ← h"))
        #expect(help.contains("(1…1000;"))
    }
}
