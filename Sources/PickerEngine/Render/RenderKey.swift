import PickerProtocol
import PickerSystem

/// What a render makes, apart from the file it reads: the one thing besides the file's version
/// that keys the render cache. A new kind of output is a new case here, so two kinds can never
/// share a key by accident (they once did through a hand-set `variant` number at five sites).
public enum RenderTarget: Hashable, Sendable {
    /// The picture scaled into a box (`getImage` and its prefetch): the session's pane.
    case fit(FitTarget, OutputSpec)
    /// The picture fitted into `width`×`height` and centred on black (`preview`).
    case preview(width: Int, height: Int, OutputSpec)
    /// A `width`×`height` window of the upright picture at 1:1 around a point, centred on black (`preview` zoomed).
    case zoomedPreview(width: Int, height: Int, PreviewZoom, OutputSpec)
    /// A square fill-and-crop grid cell, kept as pixels (`thumbnails`).
    case thumbnailCell(size: Int)
}

/// Identifies one rendered result: the version of the file it was made from (device, inode,
/// size, mtime, from `fstat` of the descriptor opened beneath the library root) plus what was made.
/// A path is not part of it: a path can lead to another file a moment later, an identity cannot.
public struct RenderKey: Hashable, Sendable {
    public var file: FileVersion
    public var target: RenderTarget

    public init(file: FileVersion, target: RenderTarget) {
        self.file = file
        self.target = target
    }
}

extension Session {
    /// The box `getImage` fits the current photo into: the pane, never upscaled. One definition for
    /// the render, its cache probe and its prefetch, so they always agree on the key.
    var paneFit: FitTarget { FitTarget(maxWidth: width, maxHeight: height, allowUpscale: false) }
}
