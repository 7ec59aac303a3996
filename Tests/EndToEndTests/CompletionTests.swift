import Foundation
import Testing

/// Shell completion against a live daemon whose album and photo names are hostile: each shell is
/// driven as a user drives it, and no name may run a command or reach pickerctl altered.
@Suite(.timeLimit(.minutes(15))) struct CompletionTests {
    static let trip = #"Trip $(touch PWNED_album) `touch PWNED_bt` it's "q""#
    static let photoA = "a $(touch PWNED_a).jpg"
    static let photoB = "b `touch PWNED_b`.jpg"
    static let photoC = #"c it's "q".jpg"#
    static let photoNewline = "d new\nline.jpg"
    static let photoE = "e plain.jpg"
    static let photoF = "f wow!.jpg"
    static let completablePhotos = [photoA, photoB, photoC, photoE, photoF]
    static let albumNewline = "two\nlines"

    let library: TemporaryLibrary
    let scratch: ScratchFolder
    var directory: URL { scratch.url }

    init() async throws {
        library = try await TemporaryLibrary()
        let jpeg = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        for name in Self.completablePhotos + [Self.photoNewline] {
            try library.add(jpeg, album: Self.trip, as: name)
        }
        try library.add(jpeg, album: "Plain", as: "x.jpg")
        try library.add(jpeg, album: Self.albumNewline, as: "y.jpg")
        // The shells' working and home folder: where a `touch PWNED_…` would land.
        scratch = try await ScratchFolder()
    }

    /// A daemon on the library with the default session's album set to the hostile one.
    private func daemonInTrip() async throws -> LiveDaemon {
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "--width", "100").exitCode == 0)
        let r = try await daemon.ctl("select-album", Self.trip)
        #expect(r.exitCode == 0, "\(r)")
        return daemon
    }

    /// The default session's album and photo, as the daemon has them.
    private func selected(_ daemon: LiveDaemon) async throws -> (album: String?, photo: String?) {
        let r = try await daemon.ctl("status", "--json")
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        return (object?["album"] as? String, object?["photo"] as? String)
    }

    /// Files named PWNED… anywhere under the shells' folder or the library.
    private func pwnedFiles() -> [String] {
        [directory, library.url].flatMap { root in
            (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
                .filter { ($0 as NSString).lastPathComponent.hasPrefix("PWNED") }
        }
    }

    private func write(_ text: String, to name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    private func script(_ daemon: LiveDaemon, _ shell: String) async throws -> String {
        let r = try await daemon.ctl("completions", shell)
        #expect(r.exitCode == 0, "\(r)")
        return r.stdoutText
    }

    private func shellEnvironment(_ daemon: LiveDaemon, _ extra: [String: String] = [:]) -> [String: String] {
        ["PATH": "\(TestEnvironment.binDirectory.path):/usr/bin:/bin", "HOME": directory.path, "TERM": "xterm-256color",
         "LANG": "C.UTF-8", "PICKER_SOCKET": daemon.socketPath].merging(extra) { $1 }
    }

    // MARK: - The helper the scripts call

    @Test func completeHelperPrintsOneNamePerLineAndLeavesOutNamesWithControlCharacters() async throws {
        let daemon = try await daemonInTrip()
        let albums = try await daemon.ctl("__complete", "albums")
        #expect(albums.exitCode == 0, "\(albums)")
        #expect(albums.stdoutText == ["All Photos", "Plain", Self.trip].map { $0 + "\n" }.joined())
        let photos = try await daemon.ctl("__complete", "photos")
        #expect(photos.stdoutText == Self.completablePhotos.map { $0 + "\n" }.joined())
        // The daemon itself lists the names with a newline; only completion leaves them out.
        let listed = try await JSONSerialization.jsonObject(with: try daemon.ctl("albums", "--json").stdout) as? [[String: Any]]
        #expect(listed?.contains { $0["name"] as? String == Self.albumNewline } == true)
    }

    // MARK: - bash

    /// Calls the completion function the way readline does (COMP_WORDS, COMP_CWORD) for a typed
    /// word, then lets bash parse the command line each candidate would make; prints the words.
    @Test func bashOffersEachNameQuotedSoTheCommandLineCarriesItExactly() async throws {
        let daemon = try await daemonInTrip()
        let scriptURL = try await write(try script(daemon, "bash"), to: "pickerctl.bash")
        await #expect(try runProcess("/bin/bash", ["-n", scriptURL.path]).exitCode == 0, "bash script must parse")
        // For a typed word ending inside an open quote, readline replaces what follows the quote
        // and closes it after a single match; the probe builds the line the same way.
        let probe = #"""
            cd "$1"; source "$2"; socket="$3"; shift 3
            for typed in "$@"; do
                COMP_WORDS=(pickerctl --socket "'$socket'" "${typed%%:*}" "${typed#*:}"); COMP_CWORD=4; COMPREPLY=()
                _pickerctl
                word="${typed#*:}"; _pickerctl_dequote "$word"; open="$OPEN"
                pre=""  # the typed text up to and with the quote left open, where readline's word starts
                if [[ -n $open ]]; then
                    for ((k = 0; k < ${#word}; k++)); do _pickerctl_dequote "${word:0:k}"; [[ -z $OPEN ]] && pre="${word:0:k+1}"; done
                fi
                for c in "${COMPREPLY[@]}"; do
                    eval "parsed=($pre$c$open)"
                    printf '%s\x1f' "${#parsed[@]}" "${parsed[@]}"
                done
                printf '\x1e'
            done
            """#
        let cases: [(typed: String, names: [String])] = [
            ("select-photo:", Self.completablePhotos),
            ("select-photo:a", [Self.photoA]),
            (#"select-photo:a\ \$\(t"#, [Self.photoA]),
            ("select-photo:'b", [Self.photoB]),
            ("select-photo:\"b `", [Self.photoB]),
            ("select-photo:\"c it's \\\"", [Self.photoC]),
            ("select-photo:'c it'\\''s \"", [Self.photoC]),
            ("select-photo:d", []),
            ("select-photo:\"f", [Self.photoF]),
            ("select-album:", ["All Photos", "Plain", Self.trip]),
            ("select-album:'Trip $(", [Self.trip]),
            ("select-album:Trip\\ \\$", [Self.trip]),
        ]
        let r = try await runProcess("/bin/bash", ["-c", probe, "probe", directory.path, scriptURL.path, daemon.socketPath] + cases.map(\.typed),
                               environment: ["PATH": "\(TestEnvironment.binDirectory.path):/usr/bin:/bin", "HOME": directory.path])
        #expect(r.exitCode == 0, "\(r)")
        let results = r.stdoutText.split(separator: "\u{1e}", omittingEmptySubsequences: false).dropLast()
        #expect(results.count == cases.count, "\(r)")
        for (c, result) in zip(cases, results) {
            let fields = result.split(separator: "\u{1f}").map(String.init)
            // Each candidate: "1" (one word on the line) followed by the word.
            let pairs = stride(from: 0, to: fields.count - 1, by: 2).map { (fields[$0], fields[$0 + 1]) }
            #expect(pairs.allSatisfy { $0.0 == "1" }, "\(c.typed): \(fields)")
            #expect(pairs.map(\.1) == c.names, "\(c.typed)")
        }
        #expect(pwnedFiles().isEmpty, "completion ran a command: \(pwnedFiles())")
    }

    @Test func bashCompletesCommandsAndPlainNamesAsBefore() async throws {
        let daemon = try await daemonInTrip()
        let help = try await daemon.ctl("--help").stdoutText
        let text = try await script(daemon, "bash")
        for line in help.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("   ") {
            guard let first = line.split(separator: " ").first, !first.hasPrefix("-") else { continue }
            #expect(text.contains(String(first)), "bash completion lacks \(first)")
        }
        await #expect(try daemon.ctl("completions", "tcsh").exitCode == 2)
        let scriptURL = try write(text, to: "pickerctl.bash")
        let probe = """
            cd "\(directory.path)"; source "\(scriptURL.path)"
            COMP_WORDS=(pickerctl select-album P); COMP_CWORD=2; _pickerctl; echo "${COMPREPLY[*]}"
            COMP_WORDS=(pickerctl sess); COMP_CWORD=1; _pickerctl; echo "${COMPREPLY[*]}"
            COMP_WORDS=(pickerctl get-image --format p); COMP_CWORD=3; _pickerctl; echo "${COMPREPLY[*]}"
            """
        let r = try await runProcess("/bin/bash", ["-c", probe], environment: shellEnvironment(daemon))
        #expect(r.stdoutText == "Plain\nsession\npng\n", "\(r)")
        #expect(pwnedFiles().isEmpty, "completion ran a command: \(pwnedFiles())")
    }

    @Test(.enabled(if: findExecutable("tmux") != nil, "needs tmux"))
    func bashTabInsertsNamesThatReachPickerctlExactlyAndRunsNothing() async throws {
        let daemon = try await daemonInTrip()
        let scriptURL = try await write(try script(daemon, "bash"), to: "pickerctl.bash")
        let rc = try write("PS1='PK> '\nsource '\(scriptURL.path)'\n", to: "bashrc")
        let shell = try await TmuxShell(["/bin/bash", "--noprofile", "--rcfile", rc.path, "-i"],
                                  environment: shellEnvironment(daemon), directory: directory, prompt: "PK> ")
        try await completeInteractively(shell, daemon, listKeys: ["Tab", "Tab"])
    }

    // MARK: - zsh

    @Test(.enabled(if: findExecutable("tmux") != nil && findExecutable("zsh") != nil, "needs tmux and zsh"))
    func zshTabInsertsNamesThatReachPickerctlExactlyAndRunsNothing() async throws {
        let daemon = try await daemonInTrip()
        let functions = directory.appendingPathComponent("zfunc")
        _ = try await write(try script(daemon, "zsh"), to: "zfunc/_pickerctl")
        _ = try write("fpath=('\(functions.path)' $fpath)\nautoload -Uz compinit\ncompinit -u -D\nPS1='PK> '\n", to: "zdot/.zshrc")
        let env = shellEnvironment(daemon, ["ZDOTDIR": directory.appendingPathComponent("zdot").path])
        let shell = try await TmuxShell([findExecutable("zsh") ?? "zsh", "-d", "-i"], environment: env, directory: directory, prompt: "PK> ")
        try await completeInteractively(shell, daemon, listKeys: ["Tab"])
    }

    // MARK: - fish

    private func fishInit(_ scriptURL: URL) -> String {
        "function fish_prompt; echo -n 'PK> '; end; set -g fish_greeting; set -g fish_autosuggestion_enabled 0; source '\(scriptURL.path)'"
    }

    @Test(.enabled(if: findExecutable("fish") != nil, "needs fish"))
    func fishOffersTheNamesWithoutControlCharactersAsCandidates() async throws {
        let daemon = try await daemonInTrip()
        let scriptURL = try await write(try script(daemon, "fish"), to: "pickerctl.fish")
        let fish = findExecutable("fish") ?? "fish"
        let photos = try await runProcess(fish, ["--no-config", "-c", "source '\(scriptURL.path)'; complete -C 'pickerctl select-photo '"],
                                    environment: shellEnvironment(daemon))
        #expect(photos.stdoutText == Self.completablePhotos.map { $0 + "\n" }.joined(), "\(photos)")
        // --socket typed on the line is passed on (the environment's socket is wrong here).
        let line = "pickerctl --socket '\(daemon.socketPath)' select-album "
        let albums = try await runProcess(fish, ["--no-config", "-c", "source '\(scriptURL.path)'; complete -C \"\(line)\""],
                                    environment: shellEnvironment(daemon, ["PICKER_SOCKET": "/nonexistent.sock"]))
        #expect(albums.stdoutText == ["All Photos", "Plain", Self.trip].map { $0 + "\n" }.joined(), "\(albums)")
        #expect(pwnedFiles().isEmpty, "completion ran a command: \(pwnedFiles())")
    }

    @Test(.enabled(if: findExecutable("tmux") != nil && findExecutable("fish") != nil, "needs tmux and fish"))
    func fishTabInsertsNamesThatReachPickerctlExactlyAndRunsNothing() async throws {
        let daemon = try await daemonInTrip()
        let scriptURL = try await write(try script(daemon, "fish"), to: "pickerctl.fish")
        let shell = try await TmuxShell([findExecutable("fish") ?? "fish", "--no-config", "-i", "-C", fishInit(scriptURL)],
                                  environment: shellEnvironment(daemon), directory: directory, prompt: "PK> ")
        try await completeInteractively(shell, daemon, listKeys: ["Tab"])
    }

    // MARK: - Session names, the shells argument, help texts (issue 16)

    /// A daemon with sessions "default" (album Trip…) and "other" (album Plain), plus one with a space and a quote.
    private func daemonWithSessions() async throws -> LiveDaemon {
        let daemon = try await daemonInTrip()
        await #expect(try daemon.ctl("session", "new", "other", "--width", "100").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Plain", session: "other").exitCode == 0)
        await #expect(try daemon.ctl("session", "new", Self.oddSession, "--width", "100").exitCode == 0)
        return daemon
    }

    static let oddSession = "my 'odd' session"

    @Test func bashCompletesSessionNamesQuotedTheShellsArgumentAndTheSessionOption() async throws {
        let daemon = try await daemonWithSessions()
        let scriptURL = try await write(try script(daemon, "bash"), to: "pickerctl.bash")
        let probe = #"""
            cd "$1"; source "$2"
            show() { COMPREPLY=(); _pickerctl; for c in "${COMPREPLY[@]}"; do eval "w=($c)"; printf '%s|' "${w[@]}"; done; echo; }
            COMP_WORDS=(pickerctl session show ''); COMP_CWORD=3; show
            COMP_WORDS=(pickerctl --session o); COMP_CWORD=2; show
            COMP_WORDS=(pickerctl --session = m); COMP_CWORD=3; show
            COMP_WORDS=(pickerctl completions ''); COMP_CWORD=2; show
            COMP_WORDS=(pickerctl sort d); COMP_CWORD=2; show
            """#
        let r = try await runProcess("/bin/bash", ["-c", probe, "probe", directory.path, scriptURL.path], environment: shellEnvironment(daemon))
        #expect(r.exitCode == 0, "\(r)")
        let lines = r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count >= 5, "\(r)")
        guard lines.count >= 5 else { return }
        #expect(lines[0] == "default|\(Self.oddSession)|other|", "each session one word: \(lines[0])")
        #expect(lines[1] == "other|", "\(lines[1])")
        #expect(lines[2] == "\(Self.oddSession)|", "\(lines[2])")
        #expect(lines[3] == "bash|zsh|fish|", "\(lines[3])")
        #expect(lines[4] == "date|", "\(lines[4])")
    }

    @Test(.enabled(if: findExecutable("fish") != nil, "needs fish"))
    func fishFollowsTheSessionOptionKeepsApostrophesAndCompletesSessionsAndShells() async throws {
        let daemon = try await daemonWithSessions()
        let scriptURL = try await write(try script(daemon, "fish"), to: "pickerctl.fish")
        let fish = findExecutable("fish") ?? "fish"
        func complete(_ line: String) async throws -> String {
            let escaped = line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            let r = try await runProcess(fish, ["--no-config", "-c", "source '\(scriptURL.path)'; complete -C '\(escaped)'"],
                                   environment: shellEnvironment(daemon))
            #expect(r.exitCode == 0, "\(r)")
            return r.stdoutText
        }
        // The session "other" has album Plain: its photo list, not the default session's.
        await #expect(try complete("pickerctl --session other select-photo ") == "x.jpg\n")
        await #expect(try complete("pickerctl --session=other select-photo ") == "x.jpg\n")
        await #expect(try complete("pickerctl select-photo ") == Self.completablePhotos.map { $0 + "\n" }.joined())
        let sessions = try await complete("pickerctl session close ")
        #expect(sessions == ["default", Self.oddSession, "other"].map { $0 + "\n" }.joined(), "\(sessions)")
        await #expect(try complete("pickerctl --session o").hasPrefix("other"))
        await #expect(try complete("pickerctl completions ").split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) ?? "" } == ["bash", "fish", "zsh"])
        // Help texts keep their apostrophes ("daemon's cache").
        let help = try await complete("pickerctl get-image --no")
        #expect(help.contains("daemon's cache"), "\(help)")
    }

    @Test(.enabled(if: findExecutable("tmux") != nil && findExecutable("zsh") != nil, "needs tmux and zsh"))
    func zshTabCompletesSessionNamesAndTheShellsArgument() async throws {
        let daemon = try await daemonWithSessions()
        let functions = directory.appendingPathComponent("zfunc")
        _ = try await write(try script(daemon, "zsh"), to: "zfunc/_pickerctl")
        _ = try write("fpath=('\(functions.path)' $fpath)\nautoload -Uz compinit\ncompinit -u -D\nPS1='PK> '\n", to: "zdot/.zshrc")
        let env = shellEnvironment(daemon, ["ZDOTDIR": directory.appendingPathComponent("zdot").path])
        let shell = try await TmuxShell([findExecutable("zsh") ?? "zsh", "-d", "-i"], environment: env, directory: directory, prompt: "PK> ")
        try await tabCompletes(shell, typed: "pickerctl completions z", to: "pickerctl completions zsh")
        try await completedNamesReachPickerctlAsOneWord(shell, daemon)
    }

    @Test(.enabled(if: findExecutable("tmux") != nil, "needs tmux"))
    func bashTabCompletesSessionNamesThatReachPickerctlAsOneWord() async throws {
        let daemon = try await daemonWithSessions()
        let scriptURL = try await write(try script(daemon, "bash"), to: "pickerctl.bash")
        let rc = try write("PS1='PK> '\nsource '\(scriptURL.path)'\n", to: "bashrc")
        let shell = try await TmuxShell(["/bin/bash", "--noprofile", "--rcfile", rc.path, "-i"],
                                  environment: shellEnvironment(daemon), directory: directory, prompt: "PK> ")
        try await tabCompletes(shell, typed: "pickerctl completions f", to: "pickerctl completions fish")
        try await completedNamesReachPickerctlAsOneWord(shell, daemon)
    }

    /// After a completed first word (ended with C-c): a session name with quotes and spaces, and an
    /// album name with a space, are completed quoted and reach pickerctl as one word each.
    private func completedNamesReachPickerctlAsOneWord(_ shell: TmuxShell, _ daemon: LiveDaemon) async throws {
        try await shell.press("C-c")
        try await shell.waitForPrompt()
        try await tabCompletes(shell, typed: "pickerctl session show my", to: #"pickerctl session show my\ \'odd\'\ session"#)
        try await shell.press("Enter")
        try await shell.waitFor("the session shown") { $0.contains("session:   \(Self.oddSession)") }
        try await shell.waitForPrompt()
        try await tabCompletes(shell, typed: "pickerctl --session other select-album Al", to: #"select-album All\ Photos"#)
        try await shell.press("Enter")
        try await shell.waitForPrompt()
        try await waitUntil("All Photos selected") {
            let r = try await daemon.ctl("status", "--json", session: "other")
            return (try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])?["album"] as? String == "All Photos"
        }
    }

    /// Types `typed`, presses Tab, and waits until the command line reads `expected` (a trailing space allowed).
    private func tabCompletes(_ shell: TmuxShell, typed: String, to expected: String) async throws {
        try await shell.type(typed)
        try await shell.waitFor("the typed line") { _ in try await shell.lastLine().hasSuffix(typed) }
        try await shell.press("Tab")
        try await shell.waitFor("'\(typed)' completed to '\(expected)'") { _ in
            try await shell.lastLine().trimmingCharacters(in: .whitespaces).hasSuffix(expected)
        }
    }

    // MARK: - The user's steps, shared by the shells

    /// Lists the candidates, then for each photo types a prefix (bare, in single or double quotes),
    /// presses Tab and Enter, and checks that the daemon selected exactly that photo; then the album.
    private func completeInteractively(_ shell: TmuxShell, _ daemon: LiveDaemon, listKeys: [String]) async throws {
        try await shell.type("pickerctl select-photo ")
        try await shell.press(keys: listKeys)
        let listing = try await shell.waitFor("the photo candidates") { $0.contains("plain.jpg") }
        #expect(listing.contains("PWNED_a") && listing.contains("PWNED_b") && listing.contains("it"), "\(listing)")
        #expect(!listing.contains("line.jpg"), "a name with a newline must not be offered: \(listing)")
        try await shell.press("C-c")
        try await shell.waitForPrompt()

        let steps: [(typed: String, name: String)] = [
            ("a", Self.photoA), ("'b", Self.photoB), ("\"c", Self.photoC), ("e", Self.photoE),
            ("\"a", Self.photoA), ("'c", Self.photoC), ("b", Self.photoB), ("\"f", Self.photoF), ("e", Self.photoE), ("f", Self.photoF),
        ]
        for step in steps {
            try await run(shell, typed: "pickerctl select-photo " + step.typed)
            try await waitUntil("photo \(step.name)") { try await selected(daemon).photo == step.name }
        }
        try await run(shell, typed: "pickerctl select-album T")
        try await waitUntil("album \(Self.trip)") { try await selected(daemon).album == Self.trip }
        #expect(pwnedFiles().isEmpty, "completion ran a command: \(pwnedFiles())")
    }

    /// Types a command line, presses Tab, waits for the completion to appear, then Enter and the prompt.
    private func run(_ shell: TmuxShell, typed: String) async throws {
        try await shell.type(typed)
        try await shell.waitFor("the typed line") { _ in try await shell.lastLine().hasSuffix(typed) }
        try await shell.press("Tab")
        try await shell.waitFor("a completion of '\(typed)'") { _ in
            let line = try await shell.lastLine()
            return !line.hasSuffix(typed) && line.contains(typed.prefix(while: { $0 != "'" && $0 != "\"" }))
        }
        try await shell.press("Enter")
        try await shell.waitForPrompt()
    }

    private func waitUntil(_ what: String, seconds: Double = 15, _ condition: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try await !condition() {
            if Date() > deadline { throw TmuxError.timeout(what, screen: "") }
            await pause(30_000)
        }
    }
}

/// A short-pathed temporary folder (tmux's socket lives in it), removed when released.
final class ScratchFolder: @unchecked Sendable {
    let url: URL

    init() async throws {
        url = URL(fileURLWithPath: "/tmp/pkc-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
