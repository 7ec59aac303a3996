import PickerProtocol

/// Renders a frame the way docs/PROTOCOL.md shows it: one field per line, hex on the left and a
/// `#` comment naming the field and its value on the right. The document's hex blocks are this
/// output verbatim (`GoldenVectorTests` checks it), so comments cannot drift from the bytes.
struct VectorAnnotation {
    private let bytes: [UInt8]
    private var pos = 0
    private var lines: [(hex: String, comment: String)] = []

    /// The annotated block for a frame of a known message type.
    static func render(_ frame: Frame) -> String {
        var a = VectorAnnotation(frame)
        if let type = MessageType(rawValue: frame.type) { a.payload(of: type) }
        return a.finish()
    }

    private init(_ frame: Frame) {
        bytes = frame.encoded()
        raw(4, "length = \(num(4))")
        let t = bytes[4]
        raw(1, "type = 0x\(hex2(t)) \(MessageType(rawValue: t).map { "\($0)" } ?? "?")")
        raw(4, "request id = \(num(4))")
    }

    private func finish() -> String {
        var all = lines
        if pos < bytes.count { all.append((hexPairs(bytes[pos...]), "(not annotated)")) }
        let width = all.map(\.hex.count).max() ?? 0
        return all.map { h, c in
            c.isEmpty ? h : h + String(repeating: " ", count: width - h.count) + "  # " + c
        }.joined(separator: "\n")
    }

    // MARK: fields

    private func num(_ n: Int) -> UInt64 {
        guard pos + n <= bytes.count else { return 0 }
        return bytes[pos..<pos + n].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private mutating func raw(_ n: Int, _ comment: String) {
        let end = min(bytes.count, pos + n)
        var first = true
        var i = pos
        repeat {
            let rowEnd = min(i + 16, end)
            lines.append((hexPairs(bytes[i..<rowEnd]), first ? comment : ""))
            first = false
            i = rowEnd
        } while i < end
        pos = end
    }

    private mutating func int(_ size: Int, _ name: String, _ meaning: (UInt64) -> String) {
        let v = num(size)
        let m = meaning(v)
        raw(size, "\(name) = \(v)" + (m.isEmpty ? "" : " (\(m))"))
    }

    private mutating func u8(_ name: String, _ meaning: (UInt64) -> String = { _ in "" }) { int(1, name, meaning) }
    private mutating func u16(_ name: String, _ meaning: (UInt64) -> String = { _ in "" }) { int(2, name, meaning) }
    private mutating func u32(_ name: String, _ meaning: (UInt64) -> String = { _ in "" }) { int(4, name, meaning) }
    private mutating func u64(_ name: String) { raw(8, "\(name) = \(num(8))") }
    private mutating func i64(_ name: String) { raw(8, "\(name) = \(Int64(bitPattern: num(8)))") }

    private mutating func string(_ name: String, ifEmpty: String = "") {
        let n = Int(num(4))
        raw(4, "\(name): string, \(n) byte\(n == 1 ? "" : "s")" + (n == 0 && !ifEmpty.isEmpty ? " (\(ifEmpty))" : ""))
        if n > 0 {
            let text = String(decoding: bytes[pos..<min(bytes.count, pos + n)], as: UTF8.self)
            raw(n, "  \"\(text)\"")
        }
    }

    private mutating func blob(_ name: String) {
        let n = Int(num(4))
        raw(4, "\(name): blob, \(n) bytes")
        if n > 0 { raw(n, "  (bytes)") }
    }

    private mutating func list(_ name: String, _ element: (inout VectorAnnotation) -> Void) {
        let n = num(4)
        u32(name)
        for _ in 0..<n where pos < bytes.count { element(&self) }
    }

    private static func format(_ v: UInt64) -> String { ImageFormat(rawValue: UInt8(truncatingIfNeeded: v)).optionName }
    private static func none(_ v: UInt64) -> String { v == 0 ? "none" : "" }

    /// The flags byte of `getImage`/`preview` and, with bit 1, the terminal cells after it.
    private mutating func cellsAfterFlags(noCacheBit: Bool) {
        let flags = num(1)
        u8("flags") { v in
            [noCacheBit && v & 1 != 0 ? "bit 0: no cache" : "", v & 2 != 0 ? "bit 1: cells follow" : ""]
                .filter { !$0.isEmpty }.joined(separator: ", ")
        }
        if flags & 2 != 0 {
            u16("cols")
            u16("rows")
        }
    }

    /// A list of session choices (`choicesReply`, `sessionNew`'s extension tag 1).
    private mutating func choiceList() {
        let n = num(4)
        u32("choices")
        for _ in 0..<n where pos < bytes.count {
            string("id")
            string("label")
            let options = num(4)
            u32("options") { $0 == 0 ? "a check box: true or false" : "" }
            for _ in 0..<options where pos < bytes.count {
                string("  option id")
                string("  option label")
            }
            string("value")
        }
    }

    private mutating func selector() {
        let kind = num(1)
        u8("selector kind") { $0 == 1 ? "by name" : "by index" }
        if kind == 1 { string("album or photo name") } else { u32("index, 1-based") }
    }

    private mutating func photoDetails() {
        string("path")
        string("name")
        u8("format", Self.format)
        u32("width")
        u32("height")
        i64("bytes")
        i64("date, Unix seconds")
        u8("date_source") { $0 == 0 ? "file mtime" : "EXIF" }
        string("camera_make", ifEmpty: "unknown")
        string("camera_model", ifEmpty: "unknown")
        string("lens", ifEmpty: "unknown")
        for field in ["exposure_time", "f_number", "focal_length"] {
            u32(field + " numerator")
            u32(field + " denominator") { $0 == 0 ? "unknown" : "" }
        }
        u32("iso") { $0 == 0 ? "unknown" : "" }
        string("colour_profile", ifEmpty: "none named")
        u8("gps") { $0 == 1 ? "the file holds a position; it is never sent" : "no position" }
    }

    private mutating func session() {
        string("name")
        string("title")
        u32("width")
        u32("height", Self.none)
        u16("max_selection")
        u16("selection_count")
        string("album", ifEmpty: "none")
        u32("album_index", Self.none)
        string("photo", ifEmpty: "none")
        u32("photo_index", Self.none)
        u32("photo_count")
        string("message", ifEmpty: "no current photo")
    }

    private mutating func photoRows() {
        list("count") {
            $0.u32("index")
            $0.string("name")
            $0.string("path")
            $0.u32("width")
            $0.u32("height")
            $0.u64("bytes")
            $0.u8("format", Self.format)
            $0.i64("date, Unix seconds")
            $0.u8("date_source") { $0 == 0 ? "file mtime" : "EXIF" }
        }
    }

    // MARK: payloads, in the codec's field order

    private mutating func payload(of type: MessageType) {
        switch type {
        case .hello:
            u16("version")
            string("client_name")
        case .ping, .libraryInfo, .scanProgress, .sessionList, .albums:
            break
        case .sessionNew:
            string("name")
            u32("width")
            u32("height", Self.none)
            u16("max_selection") { $0 == 0 ? "default, 10" : "" }
            string("title", ifEmpty: "default, \"Photo Library\"")
        case .sessionShow, .sessionClose, .status, .sessionClosed, .selection, .clearSelection:
            string("session")
        case .sessionResize:
            string("session")
            u32("width")
            u32("height", Self.none)
        case .selectAlbum, .selectPhoto, .toggle:
            string("session")
            selector()
        case .subscribe, .subscribed:
            string("session", ifEmpty: "none")
            u8("flags") { $0 & 1 != 0 ? "bit 0: library events" : "" }
        case .photoInfo:
            string("session")
            if num(1) == 0 { u8("photo") { _ in "the current photo" } } else { selector() }
        case .photoInfoReply:
            photoDetails()
        case .cancel:
            u32("request_id")
        case .cancelReply:
            u32("request_id")
            u8("found") { $0 == 1 ? "was in flight: it gets a cancelled error" : "not in flight" }
        case .sessionFinish:
            string("session")
            u8("outcome") { SessionOutcome(rawValue: UInt8(truncatingIfNeeded: $0)).name }
        case .choices:
            string("session")
        case .setChoice:
            string("session")
            string("choice")
            string("value")
        case .choicesReply:
            choiceList()
        case .sessionEvent:
            u8("change") { SessionChange(rawValue: UInt8(truncatingIfNeeded: $0)).name }
            session()
        case .libraryEvent:
            string("root")
            u32("album_count")
            u32("photo_count")
            u8("scan_state") { $0 == 0 ? "scanning" : "ready" }
            i64("scanned_at, Unix seconds")
            u32("skipped_count")
        case .scanProgressReply, .scanProgressEvent:
            u8("state") { $0 == 0 ? "scanning" : "ready" }
            u32("files_done")
            u32("files_expected") { $0 == 0 ? "not known yet" : "" }
            u32("elapsed_ms")
        case .libraryChangesEvent:
            list("added") { $0.string("path") }
            list("removed") { $0.string("path") }
            list("changed") { $0.string("path") }
        case .thumbnails:
            string("session")
            u32("cell_size") { $0 == 0 ? "default, 100" : "" }
            u32("page") { $0 == 0 ? "default, 1" : "" }
            let flags = num(1)
            u8("flags") { v in
                [v & 1 != 0 ? "bit 0: geometry only" : "", v & 2 != 0 ? "bit 1: cells follow" : "",
                 v & 4 != 0 ? "bit 2: format follows" : ""].filter { !$0.isEmpty }.joined(separator: ", ")
            }
            if flags & 4 != 0 { u8("format", Self.format) }
            if flags & 2 != 0 {
                u16("cols")
                u16("rows")
            }
        case .preview:
            string("session")
            u32("width")
            u32("height")
            u8("format", Self.format)
            u8("quality") { $0 == 0 ? "format's default" : "" }
            if pos < bytes.count { cellsAfterFlags(noCacheBit: false) }
        case .selectionReply:
            u16("max_selection")
            list("count") {
                $0.string("album")
                $0.string("name")
                $0.u32("width")
                $0.u32("height")
                $0.string("path")
                $0.string("absolute_path")
            }
        case .thumbnailsReply:
            for field in ["width", "height", "cell_size", "spacing", "padding", "columns", "rows", "page", "pages"] {
                u32(field)
            }
            list("cells: count") {
                $0.u32("  index, 1-based")
                $0.string("  name")
                $0.u32("  x")
                $0.u32("  y")
                $0.u32("  size")
                $0.u8("  flags") { v in
                    [v & 1 != 0 ? "selected" : "", v & 2 != 0 ? "current" : ""].filter { !$0.isEmpty }.joined(separator: ", ")
                }
            }
            let hasImage = num(1)
            u8("has_image") { $0 == 1 ? "yes" : "no" }
            if hasImage == 1 {
                u8("format", Self.format)
                u32("width")
                u32("height")
                blob("data")
            }
        case .photos:
            string("session")
            u8("sort") { $0 == 0 ? "by name" : "by date" }
        case .stepPhoto:
            string("session")
            u8("direction") { $0 == 0 ? "next" : "previous" }
        case .getImage:
            string("session")
            u8("format", Self.format)
            u8("quality") { $0 == 0 ? "format's default" : "" }
            cellsAfterFlags(noCacheBit: true)
        case .helloReply:
            u16("version")
            string("server_version")
            u32("max_request_frame")
            u32("max_reply_frame")
            list("input_formats: count") { $0.u8("  format", Self.format) }
            list("output_formats: count") { $0.u8("  format", Self.format) }
        case .error:
            u16("code") { ErrorCode(rawValue: UInt16(truncatingIfNeeded: $0)).name }
            string("message")
        case .pong:
            string("server_version")
        case .libraryInfoReply:
            string("root")
            u32("album_count")
            u32("photo_count")
            u8("scan_state") { $0 == 0 ? "scanning" : "ready" }
            i64("scanned_at, Unix seconds")
            u32("skipped_count")
        case .sessionState:
            session()
        case .sessionListReply:
            list("count") { $0.session() }
        case .albumsReply:
            list("count") {
                $0.u32("index")
                $0.string("name")
                $0.u32("photo_count")
            }
        case .setSort:
            string("session")
            u8("sort") { $0 == 0 ? "by name" : "by date" }
        case .photosPage:
            string("session")
            u32("offset, 0-based")
            u32("limit")
            if pos < bytes.count { u8("flags") { $0 & 1 != 0 ? "bit 0: mark broken photos" : "" } }
        case .photosPageReply:
            string("album")
            u8("sort") { $0 == 0 ? "by name" : "by date" }
            u32("total")
            u32("offset, 0-based")
            photoRows()
            if pos < bytes.count {
                list("broken") {
                    $0.u32("index")
                    $0.string("reason")
                }
            }
        case .photosReply:
            string("album")
            photoRows()
        case .image:
            u8("format", Self.format)
            u32("width")
            u32("height")
            blob("data")
        }
    }
}

private func hex2(_ b: UInt8) -> String {
    let s = String(b, radix: 16)
    return s.count == 1 ? "0" + s : s
}

private func hexPairs(_ bytes: ArraySlice<UInt8>) -> String {
    bytes.map(hex2).joined(separator: " ")
}
