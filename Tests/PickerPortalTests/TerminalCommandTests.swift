import Testing
@testable import PickerPortal

/// Which terminal runs pick, and how a configured command line is split.
@Suite struct TerminalCommandTests {
    @Test func aConfiguredTerminalWinsAndIsSplitLikeAShellWouldQuoteIt() {
        let words = TerminalCommand.resolve(configured: #"tmux -S '/run/a b/tmux' new-window -n "pick me""#, terminalVariable: "kitty") { _ in "/usr/bin/xterm" }
        #expect(words == ["tmux", "-S", "/run/a b/tmux", "new-window", "-n", "pick me"])
    }

    @Test func theTerminalVariableGetsTheWordsItsTerminalNeeds() {
        #expect(TerminalCommand.resolve(configured: nil, terminalVariable: "/usr/bin/alacritty") { _ in nil } == ["/usr/bin/alacritty", "-e"])
        #expect(TerminalCommand.resolve(configured: nil, terminalVariable: "foot") { _ in nil } == ["foot"])
        #expect(TerminalCommand.resolve(configured: nil, terminalVariable: "myterm") { _ in nil } == ["myterm", "-e"])
    }

    @Test func elseTheFirstKnownTerminalFoundOnThePath() {
        let found = TerminalCommand.resolve(configured: nil, terminalVariable: nil) { $0 == "gnome-terminal" || $0 == "xterm" ? "/usr/bin/\($0)" : nil }
        #expect(found == ["/usr/bin/gnome-terminal", "--"])
        #expect(TerminalCommand.resolve(configured: nil, terminalVariable: nil) { _ in nil } == nil)
    }

    @Test func noneOpensNothing() {
        #expect(TerminalCommand.resolve(configured: "none", terminalVariable: "foot") { "/usr/bin/\($0)" } == [])
    }

    @Test func anUnclosedQuoteIsRefused() {
        #expect(throws: ShellWords.UnclosedQuote()) { try ShellWords.split("xterm -e 'oops") }
        #expect(TerminalCommand.resolve(configured: "xterm 'oops", terminalVariable: nil) { $0 == "xterm" ? "/usr/bin/xterm" : nil } == ["/usr/bin/xterm", "-e"])
    }

    @Test func portalConfReadsKeysAndSkipsComments() {
        let keys = PortalConfiguration.parseConfigFile("# mine\nterminal = foot -e \n\npickerctl=/opt/bin/pickerctl\nbroken line\n")
        #expect(keys == ["terminal": "foot -e", "pickerctl": "/opt/bin/pickerctl"])
    }

    @Test func theCommandLineTakesSocketAndReplace() throws {
        #expect(try PortalCommandLine.parse(["--socket", "/s", "--replace"]) == .run(socket: "/s", replace: true))
        #expect(try PortalCommandLine.parse(["--socket=/s"]) == .run(socket: "/s", replace: false))
        #expect(try PortalCommandLine.parse(["--help"]) == .help)
        #expect(throws: PortalUsageError.self) { try PortalCommandLine.parse(["--bogus"]) }
    }
}
