import PickerProtocol
import PickerSystem

/// The pictures of `getImage`, `preview` and prefetch, made from a `RenderPlan` through the cache.
extension PickerService {
    /// Renders the plan, unless the cache holds it (`cached`: the probe's hit, so it is not looked up twice).
    func render(_ plan: RenderPlan, cached: EncodedImage? = nil) throws(PickerError) -> EncodedImage {
        if plan.useCache, let hit = cached ?? cache.get(plan.key) {
            Log.debug("render cache hit: \(plan.photo.relativePath) at \(plan.target.shownSize)")
            return hit
        }
        let image: EncodedImage
        switch plan.target {
        case .fit(let fit, let output): image = try fitted(plan, fit, output)
        case .preview(let width, let height, let output): image = try previewed(plan, width, height, output)
        case .zoomedPreview(let width, let height, let zoom, let output): image = try zoomed(plan, width, height, zoom, output)
        case .thumbnailCell:
            throw PickerError(.internal, "thumbnail cells are rendered by the grid, not by a render plan")
        }
        if plan.useCache { cache.put(plan.key, image) }
        return image
    }

    /// Renders a photo to fit, through the cache (prefetch).
    func render(_ photo: Photo, fit: FitTarget, output: OutputSpec, useCache: Bool) throws(PickerError) -> EncodedImage {
        try render(renderPlan(photo, .fit(fit, output), useCache: useCache))
    }

    private func fitted(_ plan: RenderPlan, _ fit: FitTarget, _ output: OutputSpec) throws(PickerError) -> EncodedImage {
        let (photo, open) = (plan.photo, plan.open)
        let estimate = WorkEstimate.render(header: photo.header, fileBytes: open.bytesToRead(maxBytes: library.maxPhotoBytes), fit: fit,
                                           output: output.format, maxPixels: configuration.maxPixels)
        return try budget.withReservation(estimate, for: photo.relativePath) { () throws(PickerError) -> EncodedImage in
            let request = DecodeRequest(plan: .fitted(fit), photoName: photo.fileName,
                                        maxPixels: configuration.maxPixels, memoryBytes: estimate)
            let out = try ImageRenderer.encode(try decodePixelsMarkingBroken(open, request), photoName: photo.fileName,
                                               output: output)
            return EncodedImage(format: out.format, width: out.width, height: out.height, data: out.bytes)
        }
    }

    /// The photo scaled to fit W×H (upscaling allowed), centred on black.
    private func previewed(_ plan: RenderPlan, _ width: Int, _ height: Int, _ output: OutputSpec) throws(PickerError) -> EncodedImage {
        let (photo, open) = (plan.photo, plan.open)
        let estimate = WorkEstimate.preview(header: photo.header, fileBytes: open.bytesToRead(maxBytes: library.maxPhotoBytes),
                                            width: width, height: height, output: output.format,
                                            maxPixels: configuration.maxPixels)
        return try budget.withReservation(estimate, for: photo.relativePath) { () throws(PickerError) -> EncodedImage in
            let fit = FitTarget(maxWidth: width, maxHeight: height, allowUpscale: true)
            let decode = DecodeRequest(plan: .fitted(fit), photoName: photo.fileName,
                                       maxPixels: configuration.maxPixels, memoryBytes: estimate)
            let picture = try decodeMarkingBroken(open, decode)
            var canvas = try Compositor.canvas(PixelSize(width: width, height: height), colour: .black)
            let at = FitMath.centred(picture.size, in: canvas.size)
            Compositor.draw(picture, onto: &canvas, x: at.x, y: at.y)
            let out = try ImageEncoder.encode(canvas, output: output)
            return EncodedImage(format: out.format, width: out.width, height: out.height, data: out.bytes)
        }
    }

    /// A W×H window of the upright photo at 1:1 around `zoom`, centred on black; the reply says
    /// where the window lies (placed on the header's display size, as the decoder places it).
    private func zoomed(_ plan: RenderPlan, _ width: Int, _ height: Int, _ zoom: PreviewZoom,
                        _ output: OutputSpec) throws(PickerError) -> EncodedImage {
        let (photo, open) = (plan.photo, plan.open)
        let estimate = WorkEstimate.zoomedPreview(header: photo.header, fileBytes: open.bytesToRead(maxBytes: library.maxPhotoBytes),
                                                  width: width, height: height, output: output.format,
                                                  maxPixels: configuration.maxPixels)
        return try budget.withReservation(estimate, for: photo.relativePath) { () throws(PickerError) -> EncodedImage in
            let view = PixelSize(width: width, height: height)
            let decode = DecodeRequest(plan: .window(view: view, zoom: zoom), photoName: photo.fileName,
                                       maxPixels: configuration.maxPixels, memoryBytes: estimate)
            let picture = try decodeMarkingBroken(open, decode)
            var canvas = try Compositor.canvas(view, colour: .black)
            let at = FitMath.centred(picture.size, in: canvas.size)
            Compositor.draw(picture, onto: &canvas, x: at.x, y: at.y)
            let out = try ImageEncoder.encode(canvas, output: output)
            let window = zoom.window(view: (width, height), picture: (photo.header.displayWidth, photo.header.displayHeight))
            return EncodedImage(format: out.format, width: out.width, height: out.height, data: out.bytes, zoom: window)
        }
    }
}

extension RenderTarget {
    /// The box, as logs show it ("800x600"; 0 for no height).
    var shownSize: String {
        switch self {
        case .fit(let fit, _): return "\(fit.maxWidth)x\(fit.maxHeight ?? 0)"
        case .preview(let width, let height, _): return "\(width)x\(height) (preview)"
        case .zoomedPreview(let width, let height, let zoom, _): return "\(width)x\(height) (preview 1:1 at \(zoom.centreX),\(zoom.centreY))"
        case .thumbnailCell(let size): return "\(size)x\(size) (cell)"
        }
    }
}
