import PickerProtocol

/// One picture request worked out once: the photo, opened beneath the library root, what to
/// make of it and the cache key of that (`RenderKey` is built here and nowhere else for a fit or
/// a preview). The cache probe makes it, and the render uses the same plan on a miss, so the
/// two can never disagree on the key, and the session, the photo and the file are looked up once.
public struct RenderPlan: Sendable {
    let photo: Photo
    /// The descriptor the render reads, and whose version keys the cache.
    let open: OpenPhoto
    let target: RenderTarget
    let useCache: Bool
    let key: RenderKey

    init(photo: Photo, open: OpenPhoto, target: RenderTarget, useCache: Bool) {
        self.photo = photo
        self.open = open
        self.target = target
        self.useCache = useCache
        self.key = RenderKey(file: open.version, target: target)
    }
}

/// What the engine worked out about a request before it was queued (`PickerService.prepare`),
/// handed back with it to `PickerService.handle(_:prepared:)`.
public struct PreparedRequest: Sendable {
    /// The picture's plan, or why there can be none (the request then answers that error).
    let plan: Result<RenderPlan, PickerError>?
    /// The cached answer found when the plan was made: no pixel work is left.
    let cached: EncodedImage?

    /// The plan made ahead (or its error), else one made now by `make`.
    func planned(else make: () throws(PickerError) -> RenderPlan) throws(PickerError) -> RenderPlan {
        guard let plan else { return try make() }
        return try plan.get()
    }

    /// Nothing worked out ahead (requests without a plan: the handler does it all when it runs).
    public static let unplanned = PreparedRequest(plan: nil, cached: nil)

    /// Pixels must be decoded to answer: false when the cache holds the answer or the request can
    /// only fail, so it may be answered in the interactive lane instead of queueing behind decodes.
    public var needsPixelWork: Bool {
        guard cached == nil, let plan else { return cached == nil }
        if case .failure = plan { return false }
        return true
    }
}
