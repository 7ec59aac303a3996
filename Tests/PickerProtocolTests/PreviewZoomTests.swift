import PickerProtocol
import Testing

/// `preview` at 1:1 (PROTOCOL.md, "Zoom (1:1)"): extension tag 2 of `preview`, answered by tag 2 of `image`.
@Suite struct PreviewZoomTests {
    private func frame(_ label: String) throws -> Frame {
        let v = try #require(ProtocolDocument.extended.first { $0.label == label }, "no block '\(label)' in PROTOCOL.md")
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        decoder.append(v.bytes)
        return try #require(try decoder.next())
    }

    @Test func theDocumentsZoomFramesDecodeAndReencodeByteForByte() throws {
        let asked = PreviewRequest(session: "main", width: 1280, height: 720, format: .png,
                                   zoom: PreviewZoom(fractionX: 0.25, fractionY: 0.75))
        let request = try frame("preview id=68 zoom at 0.25,0.75")
        #expect(try Request(frame: request) == .preview(asked))
        #expect(Request.preview(asked).frame(id: 68) == request)

        // The reply's window is the placement rule applied to the documented photo.
        let zoom = try #require(asked.zoom)
        let window = zoom.window(view: (1280, 720), picture: (5760, 3840))
        #expect(window == ZoomWindow(left: 800, top: 2520, width: 1280, height: 720, pictureWidth: 5760, pictureHeight: 3840))
        let image = EncodedImage(format: .png, width: 1280, height: 720, data: [0x89, 0x50, 0x4e, 0x47], zoom: window)
        let reply = try frame("image id=68 zoom window")
        #expect(try Reply(frame: reply) == .image(image))
        #expect(Reply.image(image).frame(id: 68) == reply)
    }

    /// Old client, new server: a preview without a zoom is the released frame; with cells and a zoom
    /// both entries travel after the cells.
    @Test func aPreviewWithoutAZoomIsTheReleasedFrameAndBothEntriesTravelTogether() throws {
        let v1 = try #require(ProtocolDocument.vectors.first { $0.label == "preview id=28" })
        guard case .preview(let old) = try Request(frame: try #require(try { var d = FrameDecoder(maxFrameLength: 1 << 20); d.append(v1.bytes); return try d.next() }())) else {
            Issue.record("not a preview")
            return
        }
        #expect(old.zoom == nil)
        #expect(Request.preview(old).frame(id: 28).encoded() == v1.bytes)

        let both = PreviewRequest(session: "s", width: 200, height: 100, format: .symbols,
                                  cells: TerminalCells(columns: 40, rows: 10, symbols: .ascii), zoom: .centre)
        #expect(try Request(frame: Request.preview(both).frame(id: 9)) == .preview(both))
        let zoomOnly = PreviewRequest(session: "s", width: 200, height: 100, format: .sixel, zoom: PreviewZoom(centreX: 0, centreY: 9_999_999))
        #expect(try Request(frame: Request.preview(zoomOnly).frame(id: 9)) == .preview(zoomOnly))
        #expect(zoomOnly.zoom?.centreY == PreviewZoom.scale, "past 1000000 counts as 1000000")
    }

    @Test func theWindowStaysInsideThePhotoAndIsThePhotoAlongAShorterSide() {
        let corner = PreviewZoom(centreX: PreviewZoom.scale, centreY: 0).window(view: (800, 600), picture: (1800, 1200))
        #expect(corner == ZoomWindow(left: 1000, top: 0, width: 800, height: 600, pictureWidth: 1800, pictureHeight: 1200))
        let wide = PreviewZoom.centre.window(view: (2000, 600), picture: (1800, 1200))
        #expect(wide.left == 0 && wide.width == 1800 && wide.top == 300 && wide.height == 600)
        // Where the window landed is a centre that asks for the same window again.
        #expect(corner.centre.window(view: (800, 600), picture: (1800, 1200)) == corner)
    }

    @Test func aZoomEntryOfTheWrongSizeIsMalformed() {
        var frame = Request.preview(PreviewRequest(session: "s", width: 100, height: 100, zoom: .centre)).frame(id: 1)
        frame.payload.removeLast()  // the entry's length says 8, 7 bytes follow
        #expect(thrownError { () throws(PickerError) in try Request(frame: frame) }?.code == .malformedFrame)
        var short = Request.preview(PreviewRequest(session: "s", width: 100, height: 100)).frame(id: 1)
        short.payload += [0, 2, 0, 0, 0, 4, 0, 0, 0, 1]  // flags 0, tag 2, 4 bytes: not a zoom
        #expect(thrownError { () throws(PickerError) in try Request(frame: short) }?.code == .malformedFrame)
    }
}
