import PickerProtocol
import PickerSystem

/// The renders the prefetcher asks for (see `Prefetcher`); they run in the background class.
extension PickerService {
    /// Renders the next and then the previous photo of the session at its pane size into the cache.
    func prefetchNeighbours(of name: String) -> (UInt64) -> Void {
        { [self] generation in
            guard let session = try? sessions.get(name), let path = session.photo,
                  let ordered = try? orderedAlbum(of: session), let i = ordered.position(ofPhotoAt: path) else { return }
            let wanted = prefetcher.wantedOutput(for: name)
            let fit = session.paneFit
            for j in [i + 1, i - 1] where (0..<ordered.count).contains(j) {
                guard prefetcher.isCurrent(name, generation) else { return }
                let photo = ordered[j]
                do throws(PickerError) {
                    _ = try render(photo, fit: fit, output: wanted, useCache: true)
                    Log.debug("prefetched \(photo.relativePath) for session \(name)")
                } catch {
                    Log.debug("prefetch of \(photo.relativePath) for session \(name) stopped: \(error.message)")
                }
            }
        }
    }

    /// Makes the cells of the first thumbnail page of the session's album (default cell size).
    func prefetchFirstThumbnailPage(of name: String) -> (UInt64) -> Void {
        { [self] generation in
            guard let session = try? sessions.get(name), let ordered = try? orderedAlbum(of: session) else { return }
            let layout = GridLayout(paneWidth: session.width, paneHeight: session.height,
                                    cellSize: GridLayout.defaultCellSize, count: ordered.count)
            for slot in layout.slots(onPage: 1) {
                guard prefetcher.isCurrent(name, generation) else { return }
                // A photo this finds broken is announced like one the grid finds (PROTOCOL.md, broken photos).
                _ = thumbnailCells.cell(for: ordered[slot], size: GridLayout.defaultCellSize) { announceBroken($0) }
            }
            Log.debug("prefetched the first thumbnail page of session \(name)")
        }
    }
}
