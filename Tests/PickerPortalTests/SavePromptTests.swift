import Testing
@testable import PickerPortal

/// Where pickerd-portal's own save prompt starts: the folder and the name it suggests.
@Suite struct SavePromptTests {
    private func bytes(_ s: String) -> DBusValue { .bytes(Array(s.utf8) + [0]) }

    @Test func theCurrentFolderAndNameElseTheCurrentFileElseHome() {
        #expect(SavePrompt.place([:], home: "/home/me") == ("/home/me", "Untitled"))
        #expect(SavePrompt.place(["current_folder": bytes("/srv/docs/"), "current_name": .string("a.txt")], home: "/home/me")
                    == ("/srv/docs", "a.txt"))
        #expect(SavePrompt.place(["current_file": bytes("/srv/docs/report.odt")], home: "/home/me") == ("/srv/docs", "report.odt"))
        #expect(SavePrompt.place(["current_file": bytes("/srv/docs/report.odt"), "current_name": .string("copy.odt")], home: "/h")
                    == ("/srv/docs", "copy.odt"))
    }

    @Test func namesWithSlashesOrControlsAndRelativeFoldersAreNotUsed() {
        #expect(SavePrompt.place(["current_name": .string("../../.bashrc")], home: "/h").name == "Untitled")
        #expect(SavePrompt.place(["current_name": .string("a\u{1b}[2Jb")], home: "/h").name == "Untitled")
        #expect(SavePrompt.place(["current_folder": bytes("relative/dir")], home: "/h").folder == "/h")
    }

    @Test func theShownTitleIsEscaped() {
        let command = SavePrompt.command(directory: "/run/x", title: "Save \u{1b}]0;evil\u{7}", options: [:], home: "/h")
        #expect(command.prefix(2) == ["sh", "-c"])
        #expect(!command[7].unicodeScalars.contains { $0.value < 0x20 }, "\(command[7])")
    }
}
