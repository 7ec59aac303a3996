/// Draws the gallery's marks on an RGB canvas: the 40% white rounded overlay over picked
/// cells, their pick-number badges, the outline around the current one and the broken tile. Anti-aliased by
/// pixel coverage.
enum GridPainter {
    static let background = RGBColor(red: 28, green: 28, blue: 30)
    static let placeholder = RGBColor(red: 72, green: 72, blue: 76)
    static let outline = RGBColor(red: 10, green: 132, blue: 255)
    /// The broken tile: darker than the grid's background, so it never passes for a photo.
    static let brokenTile = RGBColor(red: 12, green: 12, blue: 14)
    /// The broken-image mark: a picture frame in light grey cracked by a red zig-zag.
    static let brokenFrame = RGBColor(red: 174, green: 174, blue: 178)
    static let brokenCrack = RGBColor(red: 255, green: 69, blue: 58)
    static let overlayOpacity = 0.4
    static let cornerRadius = 8.0

    /// Blends white at 40% over a rounded square (radius 8) at (x, y).
    static func overlay(_ canvas: inout PixelImage, x: Int, y: Int, size: Int) {
        blendRoundedRect(&canvas, x: Double(x), y: Double(y), width: Double(size), height: Double(size),
                         radius: cornerRadius, colour: .white, opacity: overlayOpacity)
    }

    /// A 3 px ring 2 px outside the cell, in the accent colour.
    static func outline(_ canvas: inout PixelImage, x: Int, y: Int, size: Int) {
        let gap = 2.0, thickness = 3.0
        let outer = (x: Double(x) - gap - thickness, y: Double(y) - gap - thickness,
                     side: Double(size) + 2 * (gap + thickness))
        let inner = (x: Double(x) - gap, y: Double(y) - gap, side: Double(size) + 2 * gap)
        paint(&canvas, x0: Int(outer.x.rounded(.down)), y0: Int(outer.y.rounded(.down)),
              x1: Int((outer.x + outer.side).rounded(.up)), y1: Int((outer.y + outer.side).rounded(.up))) { px, py in
            let o = coverage(px, py, outer.x, outer.y, outer.side, outer.side, cornerRadius + gap + thickness)
            let i = coverage(px, py, inner.x, inner.y, inner.side, inner.side, cornerRadius + gap)
            return (max(0, o - i), outline, 1.0)
        }
    }

    /// The pick number's badge in the cell's top-right corner: a white-rimmed accent pill
    /// (a circle for one digit) with the number in white, so a pick shows on bright photos too.
    static func badge(_ canvas: inout PixelImage, number: Int, x: Int, y: Int, size: Int) {
        let box = BadgeGeometry(number: number, cellX: x, cellY: y, cellSize: size)
        let rim = 1.5
        blendRoundedRect(&canvas, x: box.x - rim, y: box.y - rim, width: box.width + 2 * rim, height: box.height + 2 * rim,
                         radius: box.height / 2 + rim, colour: .white, opacity: 1)
        blendRoundedRect(&canvas, x: box.x, y: box.y, width: box.width, height: box.height,
                         radius: box.height / 2, colour: outline, opacity: 1)
        let scale = box.glyphScale
        let textX = Int((box.x + (box.width - Double(BadgeFont.width(of: number) * scale)) / 2).rounded())
        let textY = Int((box.y + (box.height - Double(BadgeFont.glyphHeight * scale)) / 2).rounded())
        let right = min(textX + BadgeFont.width(of: number) * scale, Int(box.x + box.width))
        paint(&canvas, x0: max(textX, Int(box.x)), y0: textY, x1: right, y1: textY + BadgeFont.glyphHeight * scale) { px, py in
            let lit = BadgeFont.isLit(number, column: (Int(px) - textX) / scale, row: (Int(py) - textY) / scale)
            return (lit ? 1 : 0, .white, 1)
        }
    }

    /// The tile of a photo known not to decode: a dark cell with a broken-image mark (a frame
    /// with a crack through it) in its centre half.
    static func broken(_ canvas: inout PixelImage, x: Int, y: Int, size: Int) {
        paint(&canvas, x0: x, y0: y, x1: x + size, y1: y + size) { _, _ in (1, brokenTile, 1) }
        let side = Double(size) / 2, left = Double(x) + Double(size) / 4, top = Double(y) + (Double(size) - side * 0.8) / 2
        let stroke = max(1.5, Double(size) / 40)
        paint(&canvas, x0: x, y0: y, x1: x + size, y1: y + size) { px, py in
            let outer = coverage(px, py, left, top, side, side * 0.8, stroke * 2)
            let inner = coverage(px, py, left + stroke, top + stroke, side - 2 * stroke, side * 0.8 - 2 * stroke, stroke)
            return (max(0, outer - inner), brokenFrame, 1)
        }
        // The crack: a zig-zag from the frame's top edge to its bottom edge.
        let points = [(0.55, 0.0), (0.42, 0.3), (0.6, 0.5), (0.45, 0.8)].map { (left + $0.0 * side, top + $0.1 * side) }
        paint(&canvas, x0: x, y0: y, x1: x + size, y1: y + size) { px, py in
            var distance = Double.infinity
            for (a, b) in zip(points, points.dropFirst()) {
                distance = min(distance, segmentDistance(px, py, a, b))
            }
            return (min(1, max(0, stroke / 2 + 0.5 - distance)), brokenCrack, 1)
        }
    }

    /// Distance from (px, py) to the segment a–b.
    private static func segmentDistance(_ px: Double, _ py: Double, _ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let dx = b.0 - a.0, dy = b.1 - a.1
        let t = max(0, min(1, ((px - a.0) * dx + (py - a.1) * dy) / max(1e-9, dx * dx + dy * dy)))
        let cx = a.0 + t * dx - px, cy = a.1 + t * dy - py
        return (cx * cx + cy * cy).squareRoot()
    }

    private static func blendRoundedRect(_ canvas: inout PixelImage, x: Double, y: Double, width: Double, height: Double,
                                         radius: Double, colour: RGBColor, opacity: Double) {
        paint(&canvas, x0: Int(x.rounded(.down)), y0: Int(y.rounded(.down)),
              x1: Int((x + width).rounded(.up)), y1: Int((y + height).rounded(.up))) { px, py in
            (coverage(px, py, x, y, width, height, radius), colour, opacity)
        }
    }

    /// Calls `shade` for each pixel centre in the clipped box and blends its colour by coverage × opacity.
    private static func paint(_ canvas: inout PixelImage, x0: Int, y0: Int, x1: Int, y1: Int,
                              _ shade: (Double, Double) -> (Double, RGBColor, Double)) {
        guard canvas.channels == 3 else { return }
        let w = canvas.width, h = canvas.height
        let xs = max(0, x0)..<min(w, x1), ys = max(0, y0)..<min(h, y1)
        guard !xs.isEmpty, !ys.isEmpty else { return }
        canvas.withUnsafeMutablePixels { buf in
            for py in ys {
                for px in xs {
                    let (cov, colour, opacity) = shade(Double(px) + 0.5, Double(py) + 0.5)
                    let a = cov * opacity
                    guard a > 0 else { continue }
                    let i = (py * w + px) * 3
                    buf[i] = mix(buf[i], colour.red, a)
                    buf[i + 1] = mix(buf[i + 1], colour.green, a)
                    buf[i + 2] = mix(buf[i + 2], colour.blue, a)
                }
            }
        }
    }

    private static func mix(_ base: UInt8, _ top: UInt8, _ a: Double) -> UInt8 {
        UInt8(clamping: Int((Double(base) * (1 - a) + Double(top) * a).rounded()))
    }

    /// How much of a one-pixel area centred at (px, py) lies inside the rounded rectangle (0…1),
    /// from the signed distance to its edge.
    static func coverage(_ px: Double, _ py: Double, _ x: Double, _ y: Double, _ w: Double, _ h: Double,
                         _ r: Double) -> Double {
        let cx = x + w / 2, cy = y + h / 2
        let qx = abs(px - cx) - (w / 2 - r), qy = abs(py - cy) - (h / 2 - r)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        let distance = outside + min(max(qx, qy), 0) - r
        return min(1, max(0, 0.5 - distance))
    }
}
