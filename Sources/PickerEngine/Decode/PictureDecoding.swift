import PickerProtocol

/// The process boundary of the image pipeline: header → decode → colour → resample → orient of
/// one open photo, ending in pane-sized pixels. Every render path (get-image, preview, grid
/// cells) decodes through one of these; encoding and compositing stay with the caller.
public protocol PictureDecoding: Sendable {
    /// The pixels `request.plan` asks for, from the photo open at `open`.
    /// - Throws: `.corruptImage` (also for a decoder that crashed, was killed or broke its
    ///   sandbox), `.unsupportedImage`, `.imageTooLarge`, `.ioError`, `.cancelled`; messages name the photo.
    func decode(_ open: OpenPhoto, _ request: DecodeRequest) throws(PickerError) -> PixelImage

    /// The same pixels as they arrive: a worker's rows are left in its memfd for an encoder that
    /// streams them (`DecodedPixels.rows`); in process, the picture (the default).
    func decodePixels(_ open: OpenPhoto, _ request: DecodeRequest) throws(PickerError) -> DecodedPixels

    /// The photo's own thumbnail (JPEG EXIF IFD1, a RAW file's preview), upright, read from its first
    /// bytes, when it covers `cover` (display axes) with the picture's aspect; nil when there is none that
    /// serves or it does not decode (the grid cell moves on to its next source).
    func embeddedThumbnail(_ open: OpenPhoto, header: ImageHeader, covering cover: PixelSize,
                           maxPixels: Int) -> PixelImage?
}

extension PictureDecoding {
    public func decodePixels(_ open: OpenPhoto, _ request: DecodeRequest) throws(PickerError) -> DecodedPixels {
        .image(try decode(open, request))
    }
}

/// Decodes in the calling thread: fuzzing, engine tests and `pickerd --decode-in-process`.
public struct InProcessDecoder: PictureDecoding {
    let maxPhotoBytes: Int

    public init(maxPhotoBytes: Int) { self.maxPhotoBytes = maxPhotoBytes }

    public func decode(_ open: OpenPhoto, _ request: DecodeRequest) throws(PickerError) -> PixelImage {
        let bytes = try open.readAll(maxBytes: maxPhotoBytes)
        return try Self.run(request.plan, bytes: bytes, photoName: request.photoName, maxPixels: request.maxPixels)
    }

    public func embeddedThumbnail(_ open: OpenPhoto, header: ImageHeader, covering cover: PixelSize,
                                  maxPixels: Int) -> PixelImage? {
        guard let prefix = try? open.readPrefix(EmbeddedThumbnail.prefix(for: header.format)) else { return nil }
        return EmbeddedThumbnail.upright(prefix, header: header, covering: cover, maxPixels: maxPixels)
    }

    /// The pipeline on a file's bytes: what the worker runs, and what runs here in process.
    static func run(_ plan: DecodePlan, bytes: [UInt8], photoName: String,
                    maxPixels: Int) throws(PickerError) -> PixelImage {
        let header = try ImageHeaderReader.read(bytes: bytes, name: photoName, maxPixels: maxPixels)
        switch plan {
        case .fitted(let fit):
            return try ImageRenderer.fittedUpright(data: bytes, header: header, photoName: photoName,
                                                   fit: fit, maxPixels: maxPixels)
        case .upright(let size, let embedded):
            return try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: photoName,
                                                   minimumDisplaySize: size.map { ($0.width, $0.height) },
                                                   maxPixels: maxPixels, embeddedThumbnail: embedded)
        case .cell(let size):
            let box = PixelSize(width: size, height: size)
            let cover = FitMath.cover(width: header.displayWidth, height: header.displayHeight, box: box).scaled
            let upright = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: photoName,
                                                          minimumDisplaySize: (cover.width, cover.height),
                                                          maxPixels: maxPixels, embeddedThumbnail: true)
            guard let cell = CellCrop.cell(upright, box: box) else {
                throw PickerError(.internal, "\(photoName): cannot crop a \(size) px cell from \(upright.size)")
            }
            return cell
        case .window(let view, let zoom):
            let upright = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: photoName,
                                                          minimumDisplaySize: nil, maxPixels: maxPixels, embeddedThumbnail: false)
            return try window(of: upright, view: view, zoom: zoom)
        }
    }

    /// The zoom's window cut out of the whole upright picture (drawn onto a canvas of its size, over
    /// black where the picture has alpha).
    static func window(of picture: PixelImage, view: PixelSize, zoom: PreviewZoom) throws(PickerError) -> PixelImage {
        let w = zoom.window(view: (view.width, view.height), picture: (picture.width, picture.height))
        var canvas = try Compositor.canvas(PixelSize(width: w.width, height: w.height), colour: .black)
        Compositor.draw(picture, onto: &canvas, x: -w.left, y: -w.top)
        return canvas
    }
}
