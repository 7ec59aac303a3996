/// Requests that browse albums and photos and change the pick list.
extension RequestDeclaration {
    static let browsing: [RequestDeclaration] = [
        RequestDeclaration(.albums, answer: .albumsReply, .interactive, decode: { _ in .albums }),
        selecting(.selectAlbum, answer: .sessionState, { .selectAlbum(session: $0, $1) }) {
            if case .selectAlbum(_, let s) = $0 { s } else { nil }
        },
        // `photos` with sort 1 sets the session's order, so it changes the session.
        sorting(.photos, answer: .photosReply, { .photos(session: $0, sort: $1) }) {
            if case .photos(_, let sort) = $0 { sort } else { nil }
        },
        selecting(.selectPhoto, answer: .sessionState, { .selectPhoto(session: $0, $1) }) {
            if case .selectPhoto(_, let s) = $0 { s } else { nil }
        },
        sessionAnd(.stepPhoto, answer: .sessionState, write: { d, w in w.u8(d.rawValue) }, read: { r throws(PickerError) in
            let raw = try r.u8()
            guard let direction = StepDirection(rawValue: raw) else {
                throw PickerError(.malformedFrame, "unknown direction \(raw)")
            }
            return direction
        }, make: { .stepPhoto(session: $0, $1) }, value: { if case .stepPhoto(_, let d) = $0 { d } else { nil } }),
        sorting(.setSort, answer: .sessionState, { .setSort(session: $0, $1) }) {
            if case .setSort(_, let sort) = $0 { sort } else { nil }
        },
        RequestDeclaration(.photosPage, answer: .photosPageReply, .interactive, encode: { request, w in
            guard case .photosPage(let p) = request else { return }
            w.string(p.session)
            w.count(p.offset)
            w.count(p.limit)
            // The flags byte is optional: sent only when set, so older photosPage frames stay as they were.
            if p.markBroken { w.u8(PhotosPageRequest.markBrokenFlag) }
        }, decode: { r throws(PickerError) in
            let session = try r.string()
            let offset = Int(try r.u32())
            let limit = Int(try r.u32())
            // Optional trailing flags; bits this version does not know are ignored.
            let flags: UInt8 = r.remaining > 0 ? try r.u8() : 0
            return .photosPage(PhotosPageRequest(session: session, offset: offset, limit: limit,
                                                 markBroken: flags & PhotosPageRequest.markBrokenFlag != 0))
        }),
        selecting(.toggle, answer: .selectionReply, { .toggle(session: $0, $1) }) {
            if case .toggle(_, let s) = $0 { s } else { nil }
        },
        named(.selection, answer: .selectionReply) { .selection(session: $0) },
        named(.clearSelection, answer: .selectionReply, changesSession: true) { .clearSelection(session: $0) },
    ]

    /// A request of a session's name then a sort byte; a sort this version does not know is `malformed_frame`.
    static func sorting(_ type: MessageType, answer: MessageType,
                        _ make: @escaping @Sendable (String, PhotoSort) -> Request,
                        _ sort: @escaping @Sendable (Request) -> PhotoSort?) -> RequestDeclaration {
        sessionAnd(type, answer: answer, write: { s, w in w.u8(s.rawValue) }, read: { r throws(PickerError) in
            let s = PhotoSort(rawValue: try r.u8())
            guard s.isKnown else { throw PickerError(.malformedFrame, "unknown sort \(s.rawValue)") }
            return s
        }, make: make, value: sort)
    }
}
