/// One of a session's choices: a toggle the host app asked to show beside the picks (xdg-desktop-portal's
/// FileChooser `choices`), its options and its value now. No options: a check box whose value is
/// `"true"` or `"false"`. Wire: `id:string label:string options:list<id:string label:string> value:string`.
public struct SessionChoice: Sendable, Equatable, Codable {
    /// One option of a list choice.
    public struct Option: Sendable, Equatable, Codable {
        public var id: String
        public var label: String
        public init(id: String, label: String) {
            self.id = id
            self.label = label
        }
    }

    public var id: String
    public var label: String
    /// Empty: a check box.
    public var options: [Option]
    /// The chosen option's id, or `"true"`/`"false"` for a check box.
    public var value: String

    public init(id: String, label: String, options: [Option] = [], value: String) {
        self.id = id
        self.label = label
        self.options = options
        self.value = value
    }

    public var isCheckBox: Bool { options.isEmpty }

    /// The values this choice may take: its options' ids, or `true`/`false` for a check box.
    public var allowedValues: [String] { isCheckBox ? ["true", "false"] : options.map(\.id) }

    /// The label of the value now (a check box's value itself).
    public var valueLabel: String { options.first { $0.id == value }?.label ?? value }

    /// The value after this one: a check box flips, a list moves to its next option (from the last to the first).
    public var nextValue: String {
        let values = allowedValues
        guard let i = values.firstIndex(of: value) else { return values.first ?? value }
        return values[(i + 1) % values.count]
    }

    /// The smallest element: four empty strings' counts.
    static let minWireSize = 16

    func encode(into w: inout ByteWriter) {
        w.string(id)
        w.string(label)
        w.count(options.count)
        for o in options {
            w.string(o.id)
            w.string(o.label)
        }
        w.string(value)
    }

    static func decode(from r: inout ByteReader) throws(PickerError) -> SessionChoice {
        let id = try r.string()
        let label = try r.string()
        let n = try r.count(minElementSize: 8)
        var options: [Option] = []
        for _ in 0..<n { options.append(Option(id: try r.string(), label: try r.string())) }
        return SessionChoice(id: id, label: label, options: options, value: try r.string())
    }

    /// A list of choices: `count:u32`, then the choices back to back (`choicesReply`, `sessionNew`'s tag 1).
    static func encode(_ list: [SessionChoice], into w: inout ByteWriter) {
        w.count(list.count)
        for c in list { c.encode(into: &w) }
    }

    static func decodeList(from r: inout ByteReader) throws(PickerError) -> [SessionChoice] {
        let n = try r.count(minElementSize: minWireSize)
        var list: [SessionChoice] = []
        for _ in 0..<n { list.append(try decode(from: &r)) }
        return list
    }
}

extension NewSession {
    /// Extension tags of `sessionNew`.
    public enum Extension {
        /// The session's choices (`list<choice>`, each with its initial value). Unlike an ask it carries
        /// data; the reply has no entry (read them back with `choices`).
        public static let choices: UInt8 = 1
        /// The session's photo filter (`list<string>`: file-name globs, case-sensitive `fnmatch`); like
        /// `choices` it carries data and the reply has no entry.
        public static let filter: UInt8 = 2
    }

    /// The extension area this request carries: its choices and its filter, when it has them.
    var extensions: ExtensionArea {
        var entries: [ExtensionArea.Entry] = []
        if !choices.isEmpty {
            var w = ByteWriter()
            SessionChoice.encode(choices, into: &w)
            entries.append(.init(tag: Extension.choices, bytes: w.bytes))
        }
        if !filter.isEmpty {
            var w = ByteWriter()
            w.count(filter.count)
            for pattern in filter { w.string(pattern) }
            entries.append(.init(tag: Extension.filter, bytes: w.bytes))
        }
        return ExtensionArea(entries)
    }

    /// The filter of a decoded area (none when the tag is absent).
    static func filter(in area: ExtensionArea) throws(PickerError) -> [String] {
        guard let bytes = area.bytes(Extension.filter) else { return [] }
        var r = ByteReader(bytes)
        let n = try r.count(minElementSize: 4)
        var patterns: [String] = []
        for _ in 0..<n { patterns.append(try r.string()) }
        try r.expectEnd()
        return patterns
    }

    /// The choices of a decoded area (tags this version does not know are skipped).
    static func choices(in area: ExtensionArea) throws(PickerError) -> [SessionChoice] {
        guard let bytes = area.bytes(Extension.choices) else { return [] }
        var r = ByteReader(bytes)
        let list = try SessionChoice.decodeList(from: &r)
        try r.expectEnd()
        return list
    }
}
