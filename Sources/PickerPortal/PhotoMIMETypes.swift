/// The MIME types of the photo formats pickerd lists, with the file extensions each is known by
/// (lower case; names are compared case-insensitively, as shared-mime-info's globs are).
enum PhotoMIMETypes {
    static let extensions: [String: [String]] = [
        "image/jpeg": ["jpg", "jpeg", "jpe", "jfif"],
        "image/png": ["png"],
        "image/apng": ["png", "apng"],
        "image/webp": ["webp"],
        "image/heic": ["heic", "heif", "hif"],
        "image/heif": ["heic", "heif", "hif"],
        "image/avif": ["avif"],
        "image/gif": ["gif"],
        "image/jxl": ["jxl"],
        "image/x-adobe-dng": ["dng"], "image/dng": ["dng"],
        "image/x-canon-cr2": ["cr2"], "image/x-canon-cr3": ["cr3"],
        "image/x-nikon-nef": ["nef"], "image/x-sony-arw": ["arw"],
        "image/x-fuji-raf": ["raf"], "image/x-olympus-orf": ["orf"],
        "image/x-panasonic-rw2": ["rw2"], "image/x-pentax-pef": ["pef"],
    ]

    /// A photo file name for every extension, in lower and upper case: what a filter is tried on to
    /// tell whether it can pass a photo at all.
    static let sampleNames: [String] = Set(extensions.values.joined()).sorted().flatMap { ["photo.\($0)", "PHOTO.\($0.uppercased())"] }

    /// The file-name globs (`fnmatch`, case-sensitive) that pass what `matches` passes for `mime`:
    /// `*` for `image/*`, else one `*.[jJ][pP][gG]`-style glob an extension; none for an unknown type.
    static func globs(mime: String) -> [String] {
        let type = mime.lowercased()
        if type == "image/*" || type == "*/*" { return ["*"] }
        return (extensions[type] ?? []).map { ext in
            "*." + ext.map { c in c.isLetter ? "[\(c)\(c.uppercased())]" : String(c) }.joined()
        }
    }

    /// `image/*` and `*/*` pass every photo; a known type passes its extensions; anything else none.
    static func matches(mime: String, fileName: String) -> Bool {
        let type = mime.lowercased()
        if type == "image/*" || type == "*/*" { return true }
        guard let known = extensions[type], let dot = fileName.lastIndex(of: ".") else { return false }
        return known.contains(fileName[fileName.index(after: dot)...].lowercased())
    }
}
