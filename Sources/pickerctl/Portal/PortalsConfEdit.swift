import PickerPortalRules

/// The one line `pickerctl portal setup` adds to `portals.conf`. Every line setup adds is preceded by
/// `addedTag`, a line it replaces is kept as a comment after `replacedTag`, so `remove` restores the
/// file exactly and every other line of the user's file is left as it was.
extension PortalsConf {
    static let addedTag = "# pickerctl portal setup added the next line (pickerctl portal remove takes it out)"
    static let replacedTag = "# pickerctl portal setup replaced: "

    /// `text` with pickerd first for FileChooser under `[preferred]`; a FileChooser line already there is
    /// kept as a comment (and its backends after pickerd, as fallbacks). Applying it twice gives the same text.
    static func adding(to original: String) -> String {
        var lines = removing(from: original).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let hasNewline = original.isEmpty || original.hasSuffix("\n")
        guard let section = lines.firstIndex(where: { $0.trimmingWhitespace == "[preferred]" }) else {
            lines += [addedTag, "[preferred]", addedTag, "\(key)=pickerd"]
            return lines.joined(separator: "\n") + "\n"
        }
        let end = lines[(section + 1)...].firstIndex { $0.trimmingWhitespace.hasPrefix("[") } ?? lines.endIndex
        if let existing = lines[(section + 1)..<end].firstIndex(where: { isFileChooserLine($0) }) {
            let old = lines[existing]
            let names = KeyFile("[p]\n" + old).list("p", key)
            if names.first == "pickerd" { return original }
            let value = (["pickerd"] + names.filter { $0 != "pickerd" }).joined(separator: ";")
            lines.replaceSubrange(existing...existing, with: [replacedTag + old, addedTag, "\(key)=\(value)"])
        } else {
            lines.insert(contentsOf: [addedTag, "\(key)=pickerd"], at: section + 1)
        }
        return lines.joined(separator: "\n") + (hasNewline ? "\n" : "")
    }

    /// `text` without what `adding` put in: its lines out, the lines it replaced back.
    static func removing(from text: String) -> String {
        var out: [String] = []
        var skipNext = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if skipNext { skipNext = false; continue }
            if line == addedTag { skipNext = true; continue }
            if line.hasPrefix(replacedTag) { out.append(String(line.dropFirst(replacedTag.count))); continue }
            out.append(line)
        }
        return out.joined(separator: "\n")
    }

    /// Whether `text` holds lines setup added.
    static func hasOurLines(_ text: String) -> Bool {
        text.split(separator: "\n").contains { $0 == addedTag || $0.hasPrefix(replacedTag) }
    }

    private static func isFileChooserLine(_ line: String) -> Bool {
        guard let eq = line.firstIndex(of: "=") else { return false }
        return line[..<eq].trimmingWhitespace == key
    }
}
