import PickerSystem

/// `pickerd(1)`, made from `DaemonCommandLine.usage` — the text `--help` prints — so an option added
/// to the help is in the man page too (`pickerd --man`, run by `make install`).
public enum DaemonManPage {
    /// One option of the usage text: its label (`--library DIR`) and its help, continuation lines joined.
    struct Option: Equatable {
        var label: String
        var help: String
    }

    public static func roff(version: String) -> String {
        let usage = DaemonCommandLine.usage
        var page = ManPage(name: "pickerd", section: 1, version: version, oneLine: "the pickerd photo-picker daemon")
        page.section("Synopsis")
        page.paragraph(synopsis(usage))
        page.section("Description")
        page.paragraph(description(usage))
        page.section("Options")
        for o in options(usage) { page.item(o.label, o.help) }
        page.section("Library")
        page.paragraph("Every folder under the library root that directly holds images is an album; formats come from "
                       + "the files' bytes. A camera's RAW+JPEG pair (a RAW file and a JPEG in one folder whose names are "
                       + "equal up to the last dot: the stem compared exactly, the extensions not at all) is one photo, the "
                       + "JPEG: listed, counted and picked as the JPEG, its RAW named by pickerctl info. A stem with two RAWs "
                       + "or two JPEGs pairs nothing. --show-raw-pairs lists both files.")
        page.section("Environment")
        for line in usage.split(separator: "\n") where line.hasPrefix("Environment:") {
            page.paragraph(String(line.dropFirst("Environment:".count).drop { $0 == " " }))
        }
        page.paragraph("PICKER_LIBRARY, PICKER_SOCKET, XDG_RUNTIME_DIR, XDG_STATE_HOME, XDG_CACHE_HOME and XDG_PICTURES_DIR "
                       + "give the defaults named above.")
        page.section("Signals")
        page.paragraph("SIGINT and SIGTERM: stop accepting, finish in-flight requests, remove the socket, exit 0. "
                       + "Sessions are saved on every change.")
        page.section("Exit status")
        page.item("0", "stopped by a signal after a clean shutdown, or --help/--version")
        page.item("1", "could not start (library missing, socket in use, state folder refused)")
        page.item("2", "usage error")
        page.section("See also")
        page.paragraph("pickerctl(1); docs/PROTOCOL.md for the wire protocol.")
        return page.roff
    }

    /// The `Usage:` lines, joined.
    static func synopsis(_ usage: String) -> String {
        let lines = usage.split(separator: "\n", omittingEmptySubsequences: false)
        let block = lines.prefix { !$0.isEmpty }
        return block.map { $0.trimmingPrefix("Usage: ").trimmingPrefix(while: { $0 == " " }) }.joined(separator: " ")
    }

    /// The paragraph between the usage lines and `Options:`, joined into one.
    static func description(_ usage: String) -> String {
        let lines = usage.split(separator: "\n", omittingEmptySubsequences: false)
        guard let blank = lines.firstIndex(of: "") else { return "" }
        return lines[(blank + 1)...].prefix { !$0.isEmpty && $0 != "Options:" }.joined(separator: " ")
    }

    /// The `Options:` block: a line starting `  -` opens an option (label, two spaces or more, help);
    /// a deeper-indented line continues the last one's help.
    static func options(_ usage: String) -> [Option] {
        let lines = usage.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "Options:") else { return [] }
        var out: [Option] = []
        for line in lines[(start + 1)...].prefix(while: { !$0.isEmpty }) {
            let text = line.drop { $0 == " " }
            if line.hasPrefix("  -") {
                let parts = splitLabel(String(text))
                out.append(Option(label: parts.label, help: parts.help))
            } else if !out.isEmpty {
                out[out.count - 1].help += (out[out.count - 1].help.isEmpty ? "" : " ") + text
            }
        }
        return out
    }

    /// `--library DIR        photo library root` → ("--library DIR", "photo library root"): the label
    /// ends at the first run of two or more spaces.
    private static func splitLabel(_ text: String) -> (label: String, help: String) {
        guard let gap = text.firstRange(of: "  ") else { return (text, "") }
        return (String(text[..<gap.lowerBound]), String(text[gap.upperBound...].drop { $0 == " " }))
    }
}
