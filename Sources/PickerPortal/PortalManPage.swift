import PickerSystem

/// `pickerd-portal(1)` (`pickerd-portal --man`, run by `make install`): the `--help` text's parts
/// as a man page.
public enum PortalManPage {
    public static func roff(version: String) -> String {
        var page = ManPage(name: "pickerd-portal", section: 1, version: version,
                           oneLine: "pickerd as the desktop's photo chooser (xdg-desktop-portal FileChooser backend)")
        page.section("Synopsis")
        page.paragraph("pickerd-portal [--socket PATH] [--replace]")
        page.section("Description")
        for paragraph in PortalCommandLine.description { page.paragraph(paragraph) }
        page.section("Options")
        for (label, help) in PortalCommandLine.options { page.item(label, help) }
        page.section("Files")
        page.item("$XDG_CONFIG_HOME/pickerd/portal.conf", "terminal = WORDS (the command pick's words are appended to); pickerctl = PATH; "
                  + "forward = NAME (the backend for what is not a photo pick: a portal file's name such as gtk, a D-Bus name, or none)")
        page.item("share/xdg-desktop-portal/portals/pickerd.portal", "the backend's portal file (UseIn=pickerd)")
        page.section("Exit status")
        page.item("0", "stopped by SIGTERM, SIGINT or SIGHUP (open requests are answered 2), or --help/--version")
        page.item("1", "no session bus, or the bus name is owned by another program")
        page.item("2", "usage error")
        page.section("See also")
        page.paragraph("pickerd(1), pickerctl(1); docs/PORTAL.md for the setup on xdg-desktop-portal 1.16 and later.")
        return page.roff
    }
}
