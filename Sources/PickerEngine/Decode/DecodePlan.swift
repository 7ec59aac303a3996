import PickerProtocol

/// What a decode is to produce: the pane-sized pixels a render path needs, never the full-size
/// picture. The one description both decoders (`InProcessDecoder`, `SandboxedDecoder`) take.
public enum DecodePlan: Sendable, Equatable {
    /// Upright and resampled to exactly the fitted size of the box (`ImageRenderer.fittedUpright`).
    case fitted(FitTarget)
    /// Upright, as small as shrink-on-load allows while covering `minimumDisplaySize` (display
    /// axes; nil: full size), the file's own thumbnail allowed when `embeddedThumbnail`
    /// (`ImageRenderer.decodeUpright`, for grid cells).
    case upright(minimumDisplaySize: PixelSize?, embeddedThumbnail: Bool)
    /// A `size`×`size` grid cell: decoded as small as covering it allows (the file's own thumbnail
    /// item allowed), scaled to fill and centre-cropped, flattened on the grid background (`CellCrop`).
    case cell(size: Int)
    /// A `view`-sized window (at most the picture) of the upright picture at full size around `zoom`
    /// (`PreviewZoom.window`): a zoomed preview.
    case window(view: PixelSize, zoom: PreviewZoom)
}

/// One decode request: the plan, the caps, and the name error messages use.
public struct DecodeRequest: Sendable, Equatable {
    public var plan: DecodePlan
    public var photoName: String
    /// The declared-size cap (`--max-megapixels`).
    public var maxPixels: Int
    /// Bytes of the work budget reserved for this decode (`WorkEstimate`): the worker's memory cap is sized from it.
    public var memoryBytes: Int

    public init(plan: DecodePlan, photoName: String, maxPixels: Int, memoryBytes: Int) {
        self.plan = plan
        self.photoName = photoName
        self.maxPixels = maxPixels
        self.memoryBytes = memoryBytes
    }

    /// The pixels a picture of this request may have at most on the way out: the pane limit.
    static let maxResultBytes = PixelImage.maxCanvasPixels * 4
}
