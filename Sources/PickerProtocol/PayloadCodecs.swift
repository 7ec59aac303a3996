/// Wire codecs of the payload parts several messages share (a session's state, library info,
/// a photo row, an encoded picture): each one's encoder beside its decoder.

extension SessionState {
    func encode(into w: inout ByteWriter) {
        w.string(name)
        w.string(title)
        w.count(width)
        w.count(height ?? 0)
        w.u16(UInt16(clamping: maxSelection))
        w.u16(UInt16(clamping: selectionCount))
        w.string(album ?? "")
        w.count(albumIndex ?? 0)
        w.string(photo ?? "")
        w.count(photoIndex ?? 0)
        w.count(photoCount)
        w.string(message)
    }

    /// Smallest encoded size: four empty strings, five u32s, two u16s.
    static let minWireSize = 44

    static func decode(from r: inout ByteReader) throws(PickerError) -> SessionState {
        let name = try r.string()
        let title = try r.string()
        let width = Int(try r.u32())
        let height = Int(try r.u32())
        let maxSel = Int(try r.u16())
        let selCount = Int(try r.u16())
        let album = try r.string()
        let albumIndex = Int(try r.u32())
        let photo = try r.string()
        let photoIndex = Int(try r.u32())
        let photoCount = Int(try r.u32())
        let message = try r.string()
        return SessionState(name: name, title: title, width: width, height: height == 0 ? nil : height,
                            maxSelection: maxSel, selectionCount: selCount,
                            album: album.isEmpty ? nil : album, albumIndex: albumIndex == 0 ? nil : albumIndex,
                            photo: photo.isEmpty ? nil : photo, photoIndex: photoIndex == 0 ? nil : photoIndex,
                            photoCount: photoCount, message: message)
    }
}

extension LibraryInfo {
    func encode(into w: inout ByteWriter) {
        w.string(root)
        w.count(albumCount)
        w.count(photoCount)
        w.u8(scanState.rawValue)
        w.i64(scannedAt)
        w.count(skippedCount)
    }

    static func decode(from r: inout ByteReader) throws(PickerError) -> LibraryInfo {
        let root = try r.string()
        let albums = Int(try r.u32())
        let photos = Int(try r.u32())
        let state = ScanState(rawValue: try r.u8())  // a newer server's state is kept
        return LibraryInfo(root: root, albumCount: albums, photoCount: photos, scanState: state,
                           scannedAt: try r.i64(), skippedCount: Int(try r.u32()))
    }
}

extension PhotoInfo {
    /// One row of `photosReply` / `photosPageReply`.
    func encode(into w: inout ByteWriter) {
        w.count(index)
        w.string(name)
        w.string(path)
        w.count(width)
        w.count(height)
        w.u64(UInt64(clamping: max(0, bytes)))
        w.u8(format.rawValue)
        w.i64(date)
        w.u8(dateSource.rawValue)
    }

    /// A `list<photo>`: the count is checked against the bytes left before anything is allocated.
    static func decodeList(from r: inout ByteReader) throws(PickerError) -> [PhotoInfo] {
        let n = try r.count(minElementSize: 38)
        var photos: [PhotoInfo] = []
        for _ in 0..<n {
            let index = Int(try r.u32())
            let name = try r.string()
            let path = try r.string()
            let width = Int(try r.u32())
            let height = Int(try r.u32())
            let bytes = Int64(clamping: try r.u64())
            let format = PhotoFormat(rawValue: try r.u8())  // kept when unknown
            let date = try r.i64()
            let source = DateSource(rawValue: try r.u8())
            photos.append(PhotoInfo(index: index, name: name, path: path, width: width, height: height, bytes: bytes,
                                    format: format, date: date, dateSource: source))
        }
        return photos
    }

    static func encodeList(_ photos: [PhotoInfo], into w: inout ByteWriter) {
        w.count(photos.count)
        for p in photos { p.encode(into: &w) }
    }
}

extension EncodedImage {
    func encode(into w: inout ByteWriter) {
        w.u8(format.rawValue)
        for side in [width, height] { w.count(side) }
        w.blob(data)
    }

    static func decode(from r: inout ByteReader) throws(PickerError) -> EncodedImage {
        // An output format from a newer server is kept (`format-N`).
        EncodedImage(format: ImageFormat(rawValue: try r.u8()), width: Int(try r.u32()), height: Int(try r.u32()),
                     data: try r.blob())
    }
}

extension ByteWriter {
    /// A `list<u8>` of open values (formats): count, then one byte each.
    mutating func bytes<V: RawRepresentable>(_ values: [V]) where V.RawValue == UInt8 {
        count(values.count)
        for v in values { u8(v.rawValue) }
    }
}

extension ByteReader {
    /// A `list<u8>` of open values: every value is kept, known or not.
    mutating func bytes<V: RawRepresentable>(of: V.Type) throws(PickerError) -> [V] where V.RawValue == UInt8 {
        let n = try count()
        var out: [V] = []
        for _ in 0..<n {
            if let v = V(rawValue: try u8()) { out.append(v) }
        }
        return out
    }
}
