/// What one `OpenFile` becomes: a pickerd session and a `pick` on it, or a request that is not a
/// photo pick (a folder, or filters that pass no photo), which pickerd does not serve.
public struct PickPlan: Equatable, Sendable {
    /// The session that is the request: `portal-<app id>`, so pick's memory of the last album used with
    /// a session name is a memory per app; `portal-<app id>-<token>` while that one is open.
    public var session: String
    /// The session's title: the dialog's, with the filter named when it narrows the photos.
    public var title: String
    /// 1 for a single pick; else the most a session allows (the portal has no maximum).
    public var maxSelection: Int
    /// The album to open (`current_folder` inside the library), nil for pick's own choice.
    public var album: String?
    /// The filters a pick must pass to be returned (empty: any photo).
    public var filters: [FileFilter]
    /// The same as the session's file-name globs: the photos pick and every client are shown (empty:
    /// all; also when there would be more than pickerd takes, and the picks are filtered at the answer).
    public var sessionFilter: [String] {
        var seen: Set<String> = []
        let globs = filters.flatMap(\.sessionGlobs).filter { seen.insert($0).inserted }
        return globs.count <= 64 ? globs : []
    }
    /// The reply's `current_filter`: the filter applied, when it is one.
    public var replyFilter: FileFilter?
    /// The reply's `choices`.
    public var choices: [Choice]

    public static let mostPicks = 1000

    public enum Decision: Equatable, Sendable {
        case pick(PickPlan)
        case notAPhotoPick(String)
    }

    /// - Parameters:
    ///   - appID: the app's id ("" for a host app the frontend cannot name).
    ///   - token: unique for this request (its handle's last part).
    ///   - busy: session names of requests still open.
    ///   - libraryRoot: the library's absolute root, to turn `current_folder` into an album name.
    public static func decide(_ options: OpenFileOptions, title: String, appID: String = "", token: String,
                              libraryRoot: String?, busy: Set<String> = []) -> Decision {
        if let why = whyNotAPhotoPick(options) { return .notAPhotoPick(why) }
        let applied = options.currentFilter.map { [$0] } ?? options.filters
        let narrows = !applied.isEmpty && !applied.contains(where: \.acceptsEveryPhoto)
        let dialog = title.isEmpty ? "Choose a photo" : title
        return .pick(PickPlan(
            session: sessionName(appID: appID, token: token, busy: busy),
            title: String((narrows ? "\(dialog) (\(applied.map(\.name).joined(separator: ", ")))" : dialog).prefix(200)),
            maxSelection: options.multiple ? mostPicks : 1,
            album: libraryRoot.flatMap { album(folder: options.currentFolder, root: $0) },
            filters: narrows ? applied : [],
            replyFilter: applied.count == 1 ? applied[0] : nil,
            choices: options.choices))
    }

    /// Why `options` ask for something other than photos (a folder, filters that pass no photo); nil for a photo pick.
    public static func whyNotAPhotoPick(_ options: OpenFileOptions) -> String? {
        if options.directory { return "a folder was asked for (directory=true)" }
        let applied = options.currentFilter.map { [$0] } ?? options.filters
        if !applied.isEmpty && !applied.contains(where: \.acceptsSomePhoto) {
            return "no filter passes a photo: " + applied.map(\.name).joined(separator: ", ")
        }
        return nil
    }

    /// The album a folder is, relative to the root; nil outside the library (or at its root).
    static func album(folder: String?, root: String) -> String? {
        guard var folder, folder.hasPrefix("/") else { return nil }
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        let base = root.hasSuffix("/") ? root : root + "/"
        guard folder.hasPrefix(base), folder.count > base.count else { return nil }
        let relative = String(folder.dropFirst(base.count))
        return relative.split(separator: "/").contains("..") ? nil : relative
    }

    static func sessionName(appID: String, token: String, busy: Set<String>) -> String {
        let app = "portal-" + safeToken(appID.isEmpty ? "app" : appID)
        return busy.contains(app) ? app + "-" + safeToken(token) : app
    }

    /// Letters, digits, `.`, `_` and `-` of the token (at most 60), so the name is valid and readable.
    static func safeToken(_ token: String) -> String {
        let kept = token.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == ".") }
        let text = String(String.UnicodeScalarView(kept.prefix(60)))
        return text.isEmpty ? "request" : text
    }
}
