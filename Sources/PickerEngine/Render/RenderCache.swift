import PickerProtocol

/// Encoded results (`get-image`, `preview`) keyed by file identity and what was asked.
public typealias RenderCache = BoundedCache<EncodedImage>

extension EncodedImage: CacheCost {
    public var cacheCost: Int { data.count + 256 }
}

extension PixelImage: CacheCost {
    public var cacheCost: Int { pixels.count + 128 }
}
