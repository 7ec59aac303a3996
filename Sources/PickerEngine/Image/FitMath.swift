/// Pure layout maths for scaling pictures into boxes. All results are whole
/// pixels, rounded down where a choice exists, and never smaller than 1 px a side.
public enum FitMath {
    /// The largest size with the aspect of `width` × `height` that fits in
    /// `maxWidth` × `maxHeight`.
    ///
    /// - Parameters:
    ///   - width, height: the picture's size (values below 1 count as 1).
    ///   - maxWidth: the box width (values below 1 count as 1).
    ///   - maxHeight: the box height, or nil when only the width bounds the picture.
    ///   - allowUpscale: when false, a picture that already fits keeps its size.
    /// - Returns: the fitted size; the bounding side equals the box exactly,
    ///   the other side is rounded down but at least 1.
    public static func fit(width: Int, height: Int, maxWidth: Int, maxHeight: Int?,
                           allowUpscale: Bool) -> PixelSize {
        let w = Int64(max(1, width)), h = Int64(max(1, height))
        let boxW = Int64(max(1, maxWidth))
        let boxH = maxHeight.map { Int64(max(1, $0)) }
        if !allowUpscale, w <= boxW, boxH.map({ h <= $0 }) ?? true {
            return PixelSize(width: Int(w), height: Int(h))
        }
        // Width-limited when boxW / w <= boxH / h.
        if let boxH, boxH * w < boxW * h {
            return PixelSize(width: Int(max(1, w * boxH / h)), height: Int(boxH))
        }
        return PixelSize(width: Int(boxW), height: Int(max(1, h * boxW / w)))
    }

    /// `fit(width:height:maxWidth:maxHeight:allowUpscale:)` for a `PixelSize`.
    public static func fit(_ size: PixelSize, maxWidth: Int, maxHeight: Int?,
                           allowUpscale: Bool) -> PixelSize {
        fit(width: size.width, height: size.height, maxWidth: maxWidth,
            maxHeight: maxHeight, allowUpscale: allowUpscale)
    }

    /// Fill-and-crop: the size a picture must be scaled to so that it covers
    /// `box` completely, and the centred `box`-sized crop within that scaled picture.
    ///
    /// - Returns: `scaled` (each side >= the box side, rounded up) and `crop`
    ///   (exactly the box size, centred in `scaled`).
    public static func cover(width: Int, height: Int, box: PixelSize)
        -> (scaled: PixelSize, crop: PixelRect) {
        let w = Int64(max(1, width)), h = Int64(max(1, height))
        let bw = Int64(max(1, box.width)), bh = Int64(max(1, box.height))
        let scaled: PixelSize
        if bw * h >= bh * w {
            // The box is relatively wider: width governs, height overflows.
            scaled = PixelSize(width: Int(bw), height: Int(max(bh, (h * bw + w - 1) / w)))
        } else {
            scaled = PixelSize(width: Int(max(bw, (w * bh + h - 1) / h)), height: Int(bh))
        }
        let crop = PixelRect(x: (scaled.width - Int(bw)) / 2, y: (scaled.height - Int(bh)) / 2,
                             width: Int(bw), height: Int(bh))
        return (scaled, crop)
    }

    /// Fill-and-crop in source pixels: the centred rectangle of the picture
    /// with the aspect of `box`, which resampled to `box` gives the thumbnail.
    /// Cheaper than scaling the whole picture and cropping afterwards.
    public static func coverSourceCrop(width: Int, height: Int, box: PixelSize) -> PixelRect {
        let w = Int64(max(1, width)), h = Int64(max(1, height))
        let bw = Int64(max(1, box.width)), bh = Int64(max(1, box.height))
        if w * bh > h * bw {
            // Source is relatively wider than the box: keep full height.
            let cw = min(w, max(1, (h * bw + bh / 2) / bh))
            return PixelRect(x: Int((w - cw) / 2), y: 0, width: Int(cw), height: Int(h))
        }
        let ch = min(h, max(1, (w * bh + bw / 2) / bw))
        return PixelRect(x: 0, y: Int((h - ch) / 2), width: Int(w), height: Int(ch))
    }

    /// Where `content` goes when centred on `canvas` (letterboxing); the origin
    /// is rounded down and may be negative when `content` is larger.
    public static func centred(_ content: PixelSize, in canvas: PixelSize) -> PixelRect {
        PixelRect(x: (canvas.width - content.width) / 2, y: (canvas.height - content.height) / 2,
                  width: content.width, height: content.height)
    }
}
