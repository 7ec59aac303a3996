/// Replies that list albums, photos and the pick list.
extension ReplyDeclaration {
    static let browsing: [ReplyDeclaration] = [
        ReplyDeclaration(type: .albumsReply, encode: { reply, w in
            guard case .albums(let albums) = reply else { return }
            w.count(albums.count)
            for a in albums {
                w.count(a.index)
                w.string(a.name)
                w.count(a.photoCount)
            }
        }, decode: { r throws(PickerError) in
            let n = try r.count(minElementSize: 12)
            var albums: [AlbumInfo] = []
            for _ in 0..<n {
                albums.append(AlbumInfo(index: Int(try r.u32()), name: try r.string(), photoCount: Int(try r.u32())))
            }
            return .albums(albums)
        }),
        ReplyDeclaration(type: .photosReply, encode: { reply, w in
            guard case .photos(let list) = reply else { return }
            w.string(list.album)
            PhotoInfo.encodeList(list.photos, into: &w)
        }, decode: { r throws(PickerError) in
            let album = try r.string()
            return .photos(PhotoList(album: album, photos: try PhotoInfo.decodeList(from: &r)))
        }),
        ReplyDeclaration(type: .photosPageReply, encode: { reply, w in
            guard case .photosPage(let page) = reply else { return }
            w.string(page.album)
            w.u8(page.sort.rawValue)
            w.count(page.total)
            w.count(page.offset)
            PhotoInfo.encodeList(page.photos, into: &w)
            if page.marksBroken { BrokenMarks.encode(page.photos, into: &w) }
        }, decode: { r throws(PickerError) in
            let album = try r.string()
            let sort = PhotoSort(rawValue: try r.u8())  // a newer server's order is kept
            let total = Int(try r.u32())
            let offset = Int(try r.u32())
            var photos = try PhotoInfo.decodeList(from: &r)
            // The optional trailing broken list, present when the request asked for it.
            let marksBroken = r.remaining > 0
            if marksBroken { try BrokenMarks.decode(&r, into: &photos) }
            return .photosPage(PhotoPage(album: album, sort: sort, total: total, offset: offset,
                                         photos: photos, marksBroken: marksBroken))
        }),
        ReplyDeclaration(type: .selectionReply, encode: { reply, w in
            guard case .selection(let list) = reply else { return }
            w.u16(UInt16(clamping: list.maxSelection))
            w.count(list.photos.count)
            for p in list.photos {
                for s in [p.album, p.name] { w.string(s) }
                for n in [p.width, p.height] { w.count(n) }
                for s in [p.path, p.absolutePath] { w.string(s) }
            }
        }, decode: { r throws(PickerError) in
            let maxSelection = Int(try r.u16())
            let n = try r.count(minElementSize: 24)
            var photos: [SelectedPhoto] = []
            for _ in 0..<n {
                photos.append(SelectedPhoto(album: try r.string(), name: try r.string(), width: Int(try r.u32()),
                                            height: Int(try r.u32()), path: try r.string(), absolutePath: try r.string()))
            }
            return .selection(SelectionList(maxSelection: maxSelection, photos: photos))
        }),
    ]
}

/// `photosPageReply`'s trailing list: the rows known broken, as (index, reason).
enum BrokenMarks {
    static func encode(_ photos: [PhotoInfo], into w: inout ByteWriter) {
        let broken = photos.filter { $0.broken != nil }
        w.count(broken.count)
        for p in broken {
            w.count(p.index)
            w.string(p.broken ?? "")
        }
    }

    /// Reads the list onto the page's rows; an index not on the page is `malformed_frame`.
    static func decode(_ r: inout ByteReader, into photos: inout [PhotoInfo]) throws(PickerError) {
        let n = try r.count(minElementSize: 8)
        for _ in 0..<n {
            let index = Int(try r.u32())
            let reason = try r.string()
            guard let row = photos.firstIndex(where: { $0.index == index }) else {
                throw PickerError(.malformedFrame, "broken row \(index) is not on the page")
            }
            photos[row].broken = reason
        }
    }
}
