/// A grid cell from a picture: scaled to fill the square box and cropped to its centre, RGBA
/// flattened on the grid background. Run where the picture was decoded (the decoder worker), so
/// only the cell's pixels travel.
enum CellCrop {
    /// The `box`-sized cell of `image`; nil when the resampler refuses it.
    static func cell(_ image: PixelImage, box: PixelSize) -> PixelImage? {
        let rect = FitMath.coverSourceCrop(width: image.width, height: image.height, box: box)
        guard let cell = try? Resampler.resample(image, to: box, crop: rect) else { return nil }
        return try? Compositor.flatten(cell, over: GridPainter.background)
    }
}
