import PickerProtocol

extension PickerService {
    /// Whether `request` would be answered from the render cache as things are now, so the daemon
    /// can answer it in the interactive lane instead of queueing it behind decodes. It opens the
    /// photo (the cache is keyed by the open file's version) but decodes nothing; any failure is "no".
    public func answersFromCache(_ request: Request) -> Bool {
        switch request {
        case .getImage(let params):
            guard !params.noCache, let session = try? sessions.get(params.session),
                  let photo = try? currentPhoto(of: session), let open = try? library.openPhoto(photo) else { return false }
            guard let output = try? outputSpec(params.format, quality: params.quality, cells: params.cells) else { return false }
            return cache.contains(RenderKey(file: open.version, target: .fit(session.paneFit, output)))
        case .preview(let params):
            guard let session = try? sessions.get(params.session), let photo = try? currentPhoto(of: session),
                  let open = try? library.openPhoto(photo) else { return false }
            guard let output = try? outputSpec(params.format, quality: params.quality, cells: params.cells) else { return false }
            return cache.contains(RenderKey(file: open.version,
                                            target: .preview(width: params.width, height: params.height, output)))
        default:
            return false
        }
    }
}
