import PickerProtocol

/// The `options` of `OpenFile` (FileChooser version 3, plus version 4's `current_folder`), checked:
/// a known key with the wrong type is an error naming it; unknown keys are ignored.
public struct OpenFileOptions: Equatable, Sendable {
    public var acceptLabel: String?
    public var modal = true
    public var multiple = false
    public var directory = false
    public var filters: [FileFilter] = []
    public var currentFilter: FileFilter?
    public var choices: [Choice] = []
    /// The folder to open (`ay`, NUL-terminated on the wire; forwarded by frontends from 1.17 on).
    public var currentFolder: String?

    public init() {}

    public init(_ options: [String: DBusValue]) throws(PortalOptionError) {
        acceptLabel = try Self.take(options, "accept_label", "s") { if case .string(let s) = $0 { s } else { nil } }
        modal = try Self.take(options, "modal", "b", Self.bool) ?? true
        multiple = try Self.take(options, "multiple", "b", Self.bool) ?? false
        directory = try Self.take(options, "directory", "b", Self.bool) ?? false
        filters = try Self.take(options, "filters", "a(sa(us))") { value -> [FileFilter]? in
            guard case .array(_, let items) = value else { return nil }
            let read = items.compactMap(FileFilter.init)
            return read.count == items.count ? read : nil
        } ?? []
        currentFilter = try Self.take(options, "current_filter", "(sa(us))", FileFilter.init)
        choices = try Self.take(options, "choices", "a(ssa(ss)s)") { value -> [Choice]? in
            guard case .array(_, let items) = value else { return nil }
            let read = items.compactMap(Choice.init)
            return read.count == items.count ? read : nil
        } ?? []
        currentFolder = try Self.take(options, "current_folder", "ay") { value -> String? in
            guard case .bytes(let bytes) = value else { return nil }
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func bool(_ value: DBusValue) -> Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    /// The option `key` read by `read`, nil when absent; an error when present with another type.
    private static func take<T>(_ options: [String: DBusValue], _ key: String, _ signature: String,
                                _ read: (DBusValue) -> T?) throws(PortalOptionError) -> T? {
        guard let value = options[key] else { return nil }
        guard value.signature == signature, let read = read(value) else {
            throw PortalOptionError(key: key, expected: signature, found: value.signature)
        }
        return read
    }
}

/// An option of the wrong type: answered as `org.freedesktop.DBus.Error.InvalidArgs`.
public struct PortalOptionError: Error, Equatable, Sendable, CustomStringConvertible {
    public var key: String
    public var expected: String
    public var found: String
    public var description: String { "option '\(key)' must be of type \(expected), not \(found)" }
}

/// One of FileChooser's `choices`, wire `(ssa(ss)s)`: an id, a label, the options (none: a check
/// box of "true"/"false") and the initial selection.
public struct Choice: Equatable, Sendable {
    public var id: String
    public var label: String
    public var options: [(id: String, label: String)]
    public var initial: String

    public init(id: String, label: String, options: [(id: String, label: String)], initial: String) {
        self.id = id
        self.label = label
        self.options = options
        self.initial = initial
    }

    init?(_ value: DBusValue) {
        guard case .structure(let f) = value, f.count == 4, case .string(let id) = f[0], case .string(let label) = f[1],
              case .array(_, let items) = f[2], case .string(let initial) = f[3] else { return nil }
        var options: [(id: String, label: String)] = []
        for case .structure(let pair) in items {
            guard pair.count == 2, case .string(let oid) = pair[0], case .string(let olabel) = pair[1] else { return nil }
            options.append((oid, olabel))
        }
        guard options.count == items.count else { return nil }
        self.init(id: id, label: label, options: options, initial: initial)
    }

    /// What the reply says was chosen when the user changed nothing: the initial selection, and for a
    /// check box without one, "false".
    public var answer: String {
        if options.isEmpty && initial != "true" { return "false" }
        if !options.isEmpty && !options.contains(where: { $0.id == initial }) { return options[0].id }
        return initial
    }

    /// The choice as pickerd keeps it in the session, with its initial value (`answer`).
    public var sessionChoice: SessionChoice {
        SessionChoice(id: id, label: label, options: options.map { SessionChoice.Option(id: $0.id, label: $0.label) }, value: answer)
    }

    public static func == (a: Choice, b: Choice) -> Bool {
        a.id == b.id && a.label == b.label && a.initial == b.initial
            && a.options.map(\.id) == b.options.map(\.id) && a.options.map(\.label) == b.options.map(\.label)
    }
}
