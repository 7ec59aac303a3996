import PickerProtocol

/// `pickerctl info [PHOTO]`: one photo's details (`photoInfo`), from the index and its header.
let infoCommand = CommandSpec(words: ["info"], summary: "a photo's date, camera, lens, exposure, size, format and colour profile",
            arguments: [ArgumentSpec(name: "PHOTO", optional: true, help: "photo file name (default: the current photo)",
                                     completion: .live("photos"))],
            options: [indexOption],
            details: "Read from the index and the file's header, no decode. GPS says only whether the file holds a position,\nnever the position. A camera's RAW+JPEG pair is listed as its JPEG; \"RAW file\" names the RAW.\nExit code 3 when no photo is selected and none is named.") { inv throws(CLIError) in
    let index = try inv.int("--index", in: 1...Int(Int32.max))
    let photo: Selector? = inv.positional(0) == nil && index == nil ? nil : try inv.selector(what: "photo")
    // Asks for the RAW companion and the animation; a daemon from before a field skips its ask and answers without it.
    let asks = ExtensionArea([.init(tag: PhotoDetails.Extension.rawCompanion), .init(tag: PhotoDetails.Extension.animation)])
    let reply = try inv.call(.photoInfo(session: inv.session, photo: photo, extensions: asks))
    guard case .photoInfo(let d) = reply else { throw unexpected(reply) }
    if inv.json {
        Output.json(.object(InfoText.fields(d).map { ($0.key, $0.json) }))
    } else {
        let rows = InfoText.fields(d).filter { $0.text != nil }
        let width = rows.map(\.label.count).max() ?? 0
        for row in rows {
            Output.line(row.label + ":" + String(repeating: " ", count: width - row.label.count + 1) + (row.text ?? ""))
        }
    }
}

/// The lines of `info`, in order: JSON key, text label, text (nil: not shown), JSON value.
enum InfoText {
    struct Field {
        var key: String
        var label: String
        var text: String?
        var json: JSONValue
    }

    static func fields(_ d: PhotoDetails) -> [Field] {
        func text(_ key: String, _ label: String, _ s: String) -> Field {
            Field(key: key, label: label, text: s.isEmpty ? nil : s, json: s.isEmpty ? .null : .string(s))
        }
        return [
            text("path", "Path", d.path),
            text("raw_companion", "RAW file", d.rawCompanion ?? ""),
            text("format", "Format", d.format.displayName),
            Field(key: "frames", label: "Animation",
                  text: d.animation.map { "\($0.frames) frames, \(decimal(Double($0.milliseconds) / 1000)) s (the first is shown)" },
                  json: .optional(d.animation?.frames)),
            Field(key: "duration_ms", label: "", text: nil, json: .optional(d.animation?.milliseconds)),
            Field(key: "width", label: "Size", text: "\(d.width)x\(d.height) px", json: .int(d.width)),
            Field(key: "height", label: "", text: nil, json: .int(d.height)),
            Field(key: "bytes", label: "File size", text: "\(d.bytes) bytes", json: .int(Int(d.bytes))),
            Field(key: "date", label: "Date", text: Render.date(d.date) + (d.dateSource == .exif ? " (EXIF)" : " (file time)"),
                  json: .string(Render.date(d.date))),
            Field(key: "date_source", label: "", text: nil, json: .string(d.dateSource == .exif ? "exif" : "mtime")),
            text("camera_make", "Camera make", d.cameraMake),
            text("camera_model", "Camera model", d.cameraModel),
            text("lens", "Lens", d.lens),
            text("shutter", "Shutter", d.exposureTime.map(shutter) ?? ""),
            text("aperture", "Aperture", d.fNumber.map { "f/" + decimal($0.value) } ?? ""),
            Field(key: "iso", label: "ISO", text: d.iso.map { "\($0)" }, json: .optional(d.iso)),
            text("focal_length", "Focal length", d.focalLength.map { decimal($0.value) + " mm" } ?? ""),
            text("colour_profile", "Colour profile", d.colourProfile),
            Field(key: "gps", label: "GPS", text: d.hasGPS ? "yes (position not shown)" : "no", json: .bool(d.hasGPS)),
        ]
    }

    /// "1/250 s" under a second, "2.5 s" above.
    static func shutter(_ r: PhotoDetails.Rational) -> String {
        if r.value < 1, r.numerator > 0 {
            return "1/\(decimal(Double(r.denominator) / Double(r.numerator))) s"
        }
        return decimal(r.value) + " s"
    }

    /// At most one decimal, none when whole ("2.8", "50").
    static func decimal(_ v: Double) -> String {
        let tenths = Int((v * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
