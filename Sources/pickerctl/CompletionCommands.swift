import PickerClient
import PickerProtocol

/// Shell completions, and the hidden helper they call for live names.
let completionCommands: [CommandSpec] = [
    CommandSpec(words: ["completions"], summary: "print a completion script for bash, zsh or fish",
                arguments: [ArgumentSpec(name: "SHELL", optional: false, help: "bash, zsh or fish", completion: .words(Completions.shells))],
                details: "bash: source <(pickerctl completions bash)\nzsh:  pickerctl completions zsh > ~/.zfunc/_pickerctl\nfish: pickerctl completions fish > ~/.config/fish/completions/pickerctl.fish\nAlbum and photo names are completed live from the running daemon.") { inv throws(CLIError) in
        let shell = inv.positional(0) ?? ""
        guard let script = Completions.script(for: shell, commands: allCommands) else {
            throw .usage("completions: unknown shell '\(shell)'; use bash, zsh or fish")
        }
        print(script, terminator: "")
    },
]

/// Not listed in --help: prints album names, or photo names of the session's album, one per line.
let hiddenCompleteCommand = CommandSpec(words: ["__complete"], summary: "names for shell completion",
                                        arguments: [ArgumentSpec(name: "WHAT", optional: false, help: "albums, photos, sessions or choices")]) { inv throws(CLIError) in
    switch inv.positional(0) {
    case "albums":
        guard case .albums(let albums) = try inv.call(.albums) else { return }
        Completions.printNames(albums.map(\.name))
    case "photos":
        guard case .photos(let list) = try inv.call(.photos(session: inv.session, sort: .name)) else { return }
        Completions.printNames(list.photos.map(\.name))
    case "sessions":
        guard case .sessionList(let list) = try inv.call(.sessionList) else { return }
        Completions.printNames(list.map(\.name))
    case "choices":
        guard case .choices(let list) = try inv.call(.choices(session: inv.session)) else { return }
        Completions.printNames(list.map(\.id))
    default:
        throw .usage("__complete albums|photos|sessions|choices")
    }
}

/// Not listed in --help: prints pickerctl(1) in roff, made from the command table (`make install` runs it).
let hiddenManCommand = CommandSpec(words: ["__man"], summary: "the man page pickerctl(1), in roff") { _ throws(CLIError) in
    print(ManualPage.pickerctl(allCommands, version: pickerctlVersion), terminator: "")
}
