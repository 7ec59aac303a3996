import PickerProtocol

extension PickerService {
    /// Works out a picture request before it is queued: its plan (session, photo, open file,
    /// render key) and the cache's answer, once. The daemon runs this in the interactive lane and
    /// passes the result back to `handle(_:prepared:)`, which renders from the same plan on a miss.
    /// Decodes nothing. A request the daemon may not have planned is `.unplanned`.
    public func prepare(_ request: Request) -> PreparedRequest {
        let plan: Result<RenderPlan, PickerError>
        do throws(PickerError) {
            switch request {
            case .getImage(let params): plan = .success(try renderPlan(params))
            case .preview(let params): plan = .success(try renderPlan(params))
            default: return .unplanned
            }
        } catch {
            plan = .failure(error)
        }
        guard case .success(let p) = plan, p.useCache else { return PreparedRequest(plan: plan, cached: nil) }
        return PreparedRequest(plan: plan, cached: cache.get(p.key))
    }

    /// The plan of a `getImage`: the session's current photo fitted into its pane.
    func renderPlan(_ params: ImageRequest) throws(PickerError) -> RenderPlan {
        if let q = params.quality, !(1...100).contains(q) {
            throw PickerError(.outOfRange, "quality \(q) is out of range 1…100")
        }
        let output = try outputSpec(params.format, quality: params.quality, cells: params.cells)
        let session = try sessions.get(params.session)
        return try renderPlan(currentPhoto(of: session), .fit(session.paneFit, output), useCache: !params.noCache)
    }

    /// The plan of a `preview`: the current photo fitted into W×H (upscaled), centred on black.
    func renderPlan(_ params: PreviewRequest) throws(PickerError) -> RenderPlan {
        try Session.validatePane(width: params.width, height: params.height)
        if let q = params.quality, !(1...100).contains(q) {
            throw PickerError(.outOfRange, "quality \(q) is out of range 1…100")
        }
        let output = try outputSpec(params.format, quality: params.quality, cells: params.cells)
        let session = try sessions.get(params.session)
        let target: RenderTarget = params.zoom.map { .zoomedPreview(width: params.width, height: params.height, $0, output) }
            ?? .preview(width: params.width, height: params.height, output)
        return try renderPlan(currentPhoto(of: session), target, useCache: true)
    }

    /// Opens the photo beneath the library root and keys the target by the version of that open
    /// file, so a hit is never something read through another path, nor an edited file's old pixels.
    func renderPlan(_ photo: Photo, _ target: RenderTarget, useCache: Bool) throws(PickerError) -> RenderPlan {
        RenderPlan(photo: photo, open: try library.openPhoto(photo), target: target, useCache: useCache)
    }

    /// Whether `request` would be answered from the render cache as things are now (tests).
    func answersFromCache(_ request: Request) -> Bool {
        prepare(request).cached != nil
    }
}
