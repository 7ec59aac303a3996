import Foundation
import Testing

/// pickerctl(1) and pickerd(1) come from the same tables as `--help` (`pickerctl __man`,
/// `pickerd --man`, installed by `make install`) and are read by the real `man -l`.
@Suite(.timeLimit(.minutes(15))) struct ManPageTests {
    static let man = findExecutable("man")

    /// Writes `roff` to a file and renders it with `man -l` (warnings on); the text and the warnings.
    private func rendered(_ roff: String, name: String) throws -> (text: String, warnings: String) {
        let scratch = try ScratchFolder()
        let file = scratch.url.appendingPathComponent("\(name).1")
        try Data(roff.utf8).write(to: file)
        let r = try runProcess(Self.man ?? "man", ["--warnings", "-l", file.path],
                               environment: ["PATH": "/usr/bin:/bin", "MANPAGER": "cat", "MANWIDTH": "100", "LANG": "C.UTF-8"])
        #expect(r.exitCode == 0, "\(r)")
        // man renders with hyphenation and real minus signs; undo both so the text can be searched.
        let text = r.stdoutText.replacingOccurrences(of: "\u{2010}\n", with: "").replacingOccurrences(of: "\u{2212}", with: "-")
        return (text, r.stderr)
    }

    private func words(_ s: String) -> String {
        s.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    @Test(.enabled(if: man != nil, "needs man (man-db, groff-base)"))
    func pickerctlManPageListsEveryCommandAndOptionOfTheHelpAndRendersWithoutWarnings() throws {
        let roff = try runProcess(TestEnvironment.pickerctl.path, ["__man"])
        #expect(roff.exitCode == 0 && roff.stdoutText.hasPrefix(".TH \"PICKERCTL\" 1"), "\(roff)")
        let page = try rendered(roff.stdoutText, name: "pickerctl")
        #expect(page.warnings.isEmpty, "man warned: \(page.warnings)")
        let text = words(page.text)
        for section in ["NAME", "SYNOPSIS", "COMMANDS", "GLOBAL OPTIONS", "EXIT STATUS", "ENVIRONMENT", "SEE ALSO"] {
            #expect(page.text.contains("\n\(section)\n"), "no \(section) section")
        }
        let overview = try runProcess(TestEnvironment.pickerctl.path, ["--help"])
        let commands = ExitCodeTests.commandsListedInHelp(overview.stdoutText)
        #expect(commands.count >= 22)
        for command in commands {
            #expect(text.contains("pickerctl \(command)"), "man page lacks \(command)")
            // Every option of the command's --help is in the page, with its help text.
            let help = try runProcess(TestEnvironment.pickerctl.path, command.split(separator: " ").map(String.init) + ["--help"])
            for line in help.stdoutText.split(separator: "\n") where line.hasPrefix("  -") {
                let option = line.dropFirst(2).prefix { $0 != " " }
                #expect(text.contains(String(option)), "\(command): man page lacks \(option)")
            }
        }
        #expect(text.contains("--exist-ok") && text.contains("5 cannot reach the daemon"))
    }

    @Test(.enabled(if: man != nil, "needs man (man-db, groff-base)"))
    func pickerdManPageHasEveryOptionOfItsHelpAndRendersWithoutWarnings() throws {
        let roff = try runProcess(TestEnvironment.pickerd.path, ["--man"])
        #expect(roff.exitCode == 0 && roff.stdoutText.hasPrefix(".TH \"PICKERD\" 1"), "\(roff)")
        let page = try rendered(roff.stdoutText, name: "pickerd")
        #expect(page.warnings.isEmpty, "man warned: \(page.warnings)")
        let text = words(page.text)
        let help = try runProcess(TestEnvironment.pickerd.path, ["--help"])
        let options = help.stdoutText.split(separator: "\n").filter { $0.hasPrefix("  -") }
        #expect(options.count >= 8, "\(help)")
        for line in options {
            let label = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            #expect(text.contains(label), "man page lacks \(label)")
        }
        #expect(page.text.contains("OPTIONS") && page.text.contains("SIGNALS"))
    }

    @Test func roffTextCannotStartARequestAndKeepsBackslashes() throws {
        // A help text beginning with a dot or holding a backslash is printed, not interpreted: the
        // generated page escapes them (the page of pickerctl has `\` nowhere unescaped).
        let roff = try runProcess(TestEnvironment.pickerctl.path, ["__man"]).stdoutText
        let requests = roff.split(separator: "\n").filter { $0.hasPrefix(".") }.map { $0.prefix(3) }
        #expect(Set(requests).isSubset(of: [".TH", ".SH", ".SS", ".PP", ".TP", ".br", ".nf", ".fi", ".RS", ".RE"]), "\(Set(requests))")
    }
}
