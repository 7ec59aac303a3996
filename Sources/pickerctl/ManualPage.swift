import PickerSystem

/// `pickerctl(1)`, generated from the command table that also drives parsing and `--help`
/// (`pickerctl __man`, run by `make install`).
enum ManualPage {
    static func pickerctl(_ commands: [CommandSpec], version: String) -> String {
        var page = ManPage(name: "pickerctl", section: 1, version: version, oneLine: "command-line client of the pickerd photo-picker daemon")
        page.section("Synopsis")
        page.paragraph("pickerctl [global options] COMMAND [arguments] [options]")
        page.section("Description")
        page.paragraph("pickerctl talks to pickerd(1) over its Unix socket: it creates picker sessions, moves through the "
                       + "library's albums and photos, picks photos, and writes images. Options may come before or after the "
                       + "command, as --opt value or --opt=value; -- ends the options. Usage errors are reported before "
                       + "anything is sent to the daemon. Text output escapes control characters in names; image data is "
                       + "never written to a terminal.")
        page.section("Commands")
        for c in commands {
            page.subsection(c.name)
            page.paragraph("pickerctl " + String(c.usageLine.trimmingPrefix("pickerctl [global options] ")))
            page.paragraph(c.summary)
            // Details are laid out by hand in the table (aligned examples): kept as --help shows them.
            if !c.details.isEmpty { page.example(c.details) }
            for a in c.arguments { page.item(a.optional ? "[\(a.name)]" : a.name, a.help) }
            for o in c.options { page.item(label(o), o.help) }
        }
        page.section("Global options")
        for o in globalOptions { page.item(label(o), o.help) }
        page.item("--version", "print pickerctl's version")
        page.section("Exit status")
        for code in ExitCode.all { page.item("\(code.rawValue)", code.meaning) }
        page.section("Environment")
        page.item("PICKER_SOCKET", "the daemon's socket when --socket is not given")
        page.item("PICKER_SESSION", "the session when --session is not given (else 'default')")
        page.item("XDG_RUNTIME_DIR", "the socket is $XDG_RUNTIME_DIR/pickerd.sock when neither of the above says otherwise")
        page.item("XDG_CONFIG_HOME, XDG_DATA_HOME", "where portal setup writes (default ~/.config, ~/.local/share)")
        page.item("XDG_CURRENT_DESKTOP", "the desktops portal doctor and setup go by (the frontend's own rules)")
        page.item("PICKERD_PORTAL_FRONTEND", "the xdg-desktop-portal frontend portal setup and doctor look at "
                  + "(default /usr/libexec/xdg-desktop-portal, else /usr/lib/xdg-desktop-portal)")
        page.section("Examples")
        page.example("""
            pickerctl session new --width 800 --height 600 --exist-ok
            pickerctl select-album "All Photos"
            pickerctl toggle --index 1
            pickerctl selection --paths -0 | xargs -0 cp -t ~/picked
            source <(pickerctl completions bash)
            pickerctl portal setup && pickerctl portal doctor
            """)
        page.section("See also")
        page.paragraph("pickerd(1), pickerd-portal(1); docs/PROTOCOL.md for the wire protocol, docs/PORTAL.md for the desktop's photo chooser.")
        return page.roff
    }

    private static func label(_ o: OptionSpec) -> String {
        o.valueName.map { "\(o.name) \($0)" } ?? o.name
    }
}
