import PickerPortalRules
/// One file change of `pickerctl portal setup` or `remove`, planned first (so `--dry-run` shows
/// exactly what would be done), then applied.
struct PortalChange {
    enum Action {
        /// A file of ours, made or replaced.
        case write(String)
        /// The user's own file, with our lines added or taken out (every other line kept).
        case edit(String)
        case link(String)
        case remove
    }

    var path: String
    var action: Action
    /// The file is already as the change would leave it.
    var unchanged = false

    /// The first line of every file setup makes: such a file is ours, and `remove` deletes it.
    static let header = "# Written by pickerctl portal setup; pickerctl portal remove deletes this file."

    /// Whether the file at `path` was made by setup (starts with `header`).
    static func isOurs(_ path: String) -> Bool {
        PortalFiles.read(path).map { $0.hasPrefix(header + "\n") } ?? false
    }

    /// A write of `content` to `path`: unchanged when the file holds it already; refused when a file
    /// that is not ours is there.
    static func write(_ content: String, to path: String) throws(CLIError) -> PortalChange {
        switch PortalFiles.kind(path) {
        case .missing: return PortalChange(path: path, action: .write(content))
        case .file where PortalFiles.read(path) == content: return PortalChange(path: path, action: .write(content), unchanged: true)
        case .file where isOurs(path): return PortalChange(path: path, action: .write(content))
        default:
            throw CLIError(message: "\(path) exists and was not written by pickerctl portal setup: move it away, or merge it by hand",
                           exitCode: .failure)
        }
    }

    /// The verb shown for the change ("wrote", "would write", "unchanged").
    func verb(dryRun: Bool) -> String {
        if unchanged { return "unchanged" }
        switch action {
        case .write: return dryRun ? "would write" : "wrote"
        case .edit: return dryRun ? "would edit" : "edited"
        case .link: return dryRun ? "would link" : "linked"
        case .remove: return dryRun ? "would remove" : "removed"
        }
    }

    var actionName: String {
        switch action {
        case .write: return "write"
        case .edit: return "edit"
        case .link: return "link"
        case .remove: return "remove"
        }
    }

    /// The text of the change for the user: the path, a link's target, a written file's lines.
    func text(dryRun: Bool) -> String {
        let verb = self.verb(dryRun: dryRun)
        let head = verb + String(repeating: " ", count: max(1, 13 - verb.count)) + path
        switch action {
        case .link(let target): return head + " -> " + target
        case .write(let content), .edit(let content):
            guard !unchanged else { return head }
            return head + "\n" + content.split(separator: "\n", omittingEmptySubsequences: false).dropLast(content.hasSuffix("\n") ? 1 : 0)
                .map { "    | " + $0 }.joined(separator: "\n")
        case .remove: return head
        }
    }

    func json() -> JSONValue {
        var fields: [(String, JSONValue)] = [("action", .string(actionName)), ("path", .string(path)), ("unchanged", .bool(unchanged))]
        if case .link(let target) = action { fields.append(("target", .string(target))) }
        return .object(fields)
    }

    /// Makes the change.
    func apply() throws(CLIError) {
        guard !unchanged else { return }
        switch action {
        case .write(let content), .edit(let content): try PortalFiles.write(content, to: path)
        case .link(let target): try PortalFiles.link(path, to: target)
        case .remove: try PortalFiles.remove(path)
        }
    }
}
