/// `preview` at 1:1: one pixel of the upright photo to one pixel of the screen, a screen-sized window
/// of it around a point (extension tag 2 of `preview`; PROTOCOL.md, "Extending a message").
///
/// The point is in millionths of the upright photo's width and height (500000, 500000: its centre),
/// so a client can ask before it knows the photo's size. The window is moved inside the photo, never
/// past an edge; the reply's entry (`ZoomWindow`) says where it landed.
public struct PreviewZoom: Sendable, Hashable {
    public static let extensionTag: UInt8 = 2
    public static let scale: UInt32 = 1_000_000

    public var centreX: UInt32
    public var centreY: UInt32

    /// Clamped into 0…`scale`.
    public init(centreX: UInt32, centreY: UInt32) {
        self.centreX = min(centreX, Self.scale)
        self.centreY = min(centreY, Self.scale)
    }

    /// The middle of the photo.
    public static let centre = PreviewZoom(centreX: scale / 2, centreY: scale / 2)

    /// From fractions of the width and height (clamped into 0…1).
    public init(fractionX: Double, fractionY: Double) {
        func wire(_ f: Double) -> UInt32 { UInt32((min(max(f.isNaN ? 0.5 : f, 0), 1) * Double(Self.scale)).rounded()) }
        self.init(centreX: wire(fractionX), centreY: wire(fractionY))
    }

    public var fractionX: Double { Double(centreX) / Double(Self.scale) }
    public var fractionY: Double { Double(centreY) / Double(Self.scale) }

    /// The window of `view` size (at most the picture's) around this point of a `picture`-sized
    /// photo, kept inside it: the one placement the decoder crops and the reply reports.
    public func window(view: (width: Int, height: Int), picture: (width: Int, height: Int)) -> ZoomWindow {
        func place(_ fraction: Double, _ side: Int, _ whole: Int) -> (origin: Int, side: Int) {
            let side = max(1, min(side, whole))
            let wanted = Int((fraction * Double(whole)).rounded()) - side / 2
            return (min(max(wanted, 0), whole - side), side)
        }
        let x = place(fractionX, view.width, max(1, picture.width))
        let y = place(fractionY, view.height, max(1, picture.height))
        return ZoomWindow(left: x.origin, top: y.origin, width: x.side, height: y.side,
                          pictureWidth: max(1, picture.width), pictureHeight: max(1, picture.height))
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.u32(centreX)
        w.u32(centreY)
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(PickerError) -> PreviewZoom {
        var r = ByteReader(bytes)
        let zoom = PreviewZoom(centreX: try r.u32(), centreY: try r.u32())
        guard r.remaining == 0 else { throw PickerError(.malformedFrame, "zoom entry has \(bytes.count) bytes, not 8") }
        return zoom
    }
}

/// Where a 1:1 preview's window lies in the upright photo (the reply's entry, tag 2 of `image`):
/// its top-left corner and size in the photo's pixels, and the photo's whole size. The window is drawn
/// centred on the screen (black around it when the photo is smaller than the screen).
public struct ZoomWindow: Sendable, Hashable {
    public var left: Int
    public var top: Int
    public var width: Int
    public var height: Int
    public var pictureWidth: Int
    public var pictureHeight: Int

    public init(left: Int, top: Int, width: Int, height: Int, pictureWidth: Int, pictureHeight: Int) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.pictureWidth = pictureWidth
        self.pictureHeight = pictureHeight
    }

    /// The point that asks for exactly this window again (the placement rule's `floor(w / 2)` undone).
    public var centre: PreviewZoom {
        PreviewZoom(fractionX: Double(left + width / 2) / Double(max(1, pictureWidth)),
                    fractionY: Double(top + height / 2) / Double(max(1, pictureHeight)))
    }

    /// The window moved by `dx`, `dy` halves of itself, kept inside the picture.
    public func moved(dx: Int, dy: Int) -> ZoomWindow {
        var w = self
        w.left = min(max(left + dx * (width / 2), 0), max(0, pictureWidth - width))
        w.top = min(max(top + dy * (height / 2), 0), max(0, pictureHeight - height))
        return w
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter()
        for v in [left, top, width, height, pictureWidth, pictureHeight] { w.u32(UInt32(clamping: v)) }
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(PickerError) -> ZoomWindow {
        var r = ByteReader(bytes)
        var v: [Int] = []
        for _ in 0..<6 { v.append(Int(try r.u32())) }
        guard r.remaining == 0 else { throw PickerError(.malformedFrame, "zoom window entry has \(bytes.count) bytes, not 24") }
        return ZoomWindow(left: v[0], top: v[1], width: v[2], height: v[3], pictureWidth: v[4], pictureHeight: v[5])
    }
}

extension ExtensionArea {
    /// The zoom of a `preview` request, nil when absent.
    func previewZoom() throws(PickerError) -> PreviewZoom? {
        try bytes(PreviewZoom.extensionTag).map { b throws(PickerError) in try PreviewZoom.decode(b) }
    }

    /// Where a zoomed preview's window landed, nil when absent.
    func zoomWindow() throws(PickerError) -> ZoomWindow? {
        try bytes(PreviewZoom.extensionTag).map { b throws(PickerError) in try ZoomWindow.decode(b) }
    }

    /// A request's area: the symbol class (with cells) and the zoom, each when given.
    static func picture(symbols: SymbolClass?, zoom: PreviewZoom?) -> ExtensionArea {
        var area = ExtensionArea.symbols(symbols)
        if let zoom { area.set(PreviewZoom.extensionTag, zoom.encoded()) }
        return area
    }

    /// A reply's area: the symbol class drawn and the zoom window, each when the request asked.
    static func picture(symbols: SymbolClass?, window: ZoomWindow?) -> ExtensionArea {
        var area = ExtensionArea.symbols(symbols)
        if let window { area.set(PreviewZoom.extensionTag, window.encoded()) }
        return area
    }
}
