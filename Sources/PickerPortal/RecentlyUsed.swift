import CGLib
import PickerPortalRules
import PickerSystem

/// Photos answered to an app go into the desktop's list of recently used files,
/// `$XDG_DATA_HOME/recently-used.xbel`, as GTK's own chooser backend does: GTK's "Recent" place
/// and other apps then offer them. GLib's GBookmarkFile reads, merges and writes the file (a
/// temporary file and a rename), so other apps' entries stay; a file GLib cannot read is left alone.
enum RecentlyUsed {
    /// Adds `paths` (absolute) as used by `appID` ("" when the frontend could not name the app).
    /// Failures are logged: the app's answer never depends on this list.
    static func record(_ paths: [String], appID: String, environment: PortalEnvironment = PortalEnvironment()) {
        guard !paths.isEmpty else { return }
        let file = environment.dataHome + "/recently-used.xbel"
        guard let bookmarks = g_bookmark_file_new() else { return }
        defer { g_bookmark_file_free(bookmarks) }
        var error: UnsafeMutablePointer<GError>? = nil
        if g_bookmark_file_load_from_file(bookmarks, file, &error) == 0 {
            let missing = error.map { $0.pointee.domain == g_file_error_quark() && $0.pointee.code == G_FILE_ERROR_NOENT.rawValue } ?? false
            if !missing {
                Log.error("portal: \(file) is not a list GLib can read (\(message(error))): not changed")
                g_clear_error(&error)
                return
            }
            g_clear_error(&error)
        }
        let app = appID.isEmpty ? "pickerd-portal" : appID
        for path in paths {
            let uri = FileURI.from(path: path)
            g_bookmark_file_set_mime_type(bookmarks, uri, mimeType(of: path))
            g_bookmark_file_add_application(bookmarks, uri, app, "\(app) %u")
        }
        g_mkdir_with_parents(environment.dataHome, 0o700)
        if g_bookmark_file_to_file(bookmarks, file, &error) == 0 {
            Log.error("portal: writing \(file): \(message(error))")
            g_clear_error(&error)
        }
    }

    /// The photo's MIME type by its extension: of the types that claim it, the one named after it
    /// (`.png` is image/png, not image/apng), else the first by name; unknown: application/octet-stream.
    static func mimeType(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let claiming = PhotoMIMETypes.extensions.keys.sorted().filter { PhotoMIMETypes.matches(mime: $0, fileName: name) }
        return claiming.first { $0 == "image/" + ext } ?? claiming.first ?? "application/octet-stream"
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
    }
}
