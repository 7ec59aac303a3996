import PickerProtocol
import Synchronization

/// The thumbnail grid and the full-screen preview (the gallery design).
extension PickerService {
    /// One page of the selected album as a grid of fill-and-crop cells, picked cells under
    /// a 40% white rounded overlay and the current photo outlined; or only its geometry.
    func thumbnailSheet(_ request: ThumbnailRequest) throws(PickerError) -> ThumbnailSheet {
        let session = try sessions.get(request.session)
        let album = try orderedAlbum(of: session)
        let size = request.cellSize ?? GridLayout.defaultCellSize
        guard GridLayout.cellSizeRange.contains(size) else {
            throw PickerError(.outOfRange, "cell size \(size) is out of range 16…1024 px")
        }
        // Checked before any cell is made: symbols without cells is the caller's mistake, not work to waste.
        let output = try outputSpec(request.format, quality: nil, cells: request.cells)
        let layout = GridLayout(paneWidth: session.width, paneHeight: session.height, cellSize: size,
                                count: album.count)
        let page = request.page ?? 1
        guard (1...layout.pages).contains(page) else {
            throw PickerError(.outOfRange, "page \(page) is out of range 1…\(layout.pages)")
        }
        let picked = Set(session.selection)
        let slots = layout.slots(onPage: page)
        let photos = slots.map { album[$0] }
        // Cells flag the photos known broken; with a picture, after its cells were made (so a
        // decode that failed just now is flagged, and announced once).
        func geometry() -> GridGeometry {
            let cells = slots.enumerated().map { i, slot -> GridCell in
                let photo = photos[i]
                let origin = layout.origin(ofSlot: slot)
                return GridCell(index: slot + 1, name: photo.fileName, x: origin.x, y: origin.y, size: size,
                                selected: picked.contains(photo.relativePath), current: photo.relativePath == session.photo,
                                broken: brokenReason(photo) != nil)
            }
            return GridGeometry(width: layout.width, height: layout.height(ofPage: page), cellSize: size,
                                spacing: GridLayout.spacing, padding: GridLayout.padding, columns: layout.columns,
                                rows: layout.rows(onPage: page), page: page, pages: layout.pages, cells: cells)
        }
        if request.geometryOnly { return ThumbnailSheet(geometry: geometry(), image: nil) }

        // Cells are independent: made on this worker and any idle ones; a cancelled request stops
        // making cells (one cell is the grid's batch).
        let pickNumbers = self.pickNumbers(of: session)
        let made = Mutex<[Int: PixelImage]>([:])
        let thumbnailCells = self.thumbnailCells
        pool.forEach(photos.count) { i in
            guard !CancelFlag.currentIsRaised else { return }
            let cell = thumbnailCells.cell(for: photos[i], size: size) { self.announceBroken($0) }
            made.withLock { $0[i] = cell }
        }
        if CancelFlag.currentIsRaised { throw PickerError(.cancelled, "thumbnail sheet: cancelled") }
        let geometry = geometry()
        let cells = geometry.cells
        // The sheet's own memory is reserved once its cells are made (each cell reserved its decode
        // and gave it back): never holding one reservation while waiting for another avoids deadlock.
        let images = made.withLock { $0 }
        let sheetBytes = WorkEstimate.thumbnailSheet(width: geometry.width, height: geometry.height)
        return try budget.withReservation(sheetBytes, for: "thumbnail sheet of album '\(album.album.name)'") {
            () throws(PickerError) -> ThumbnailSheet in
            var canvas = try Compositor.canvas(PixelSize(width: geometry.width, height: geometry.height),
                                               colour: GridPainter.background)
            for (i, cell) in cells.enumerated() {
                if cell.broken {
                    GridPainter.broken(&canvas, x: cell.x, y: cell.y, size: size)
                } else if let image = images[i] {
                    Compositor.draw(image, onto: &canvas, x: cell.x, y: cell.y)
                }
                if cell.selected { GridPainter.overlay(&canvas, x: cell.x, y: cell.y, size: size) }
                if let number = pickNumbers[photos[i].relativePath] {
                    GridPainter.badge(&canvas, number: number, x: cell.x, y: cell.y, size: size)
                }
                if cell.current { GridPainter.outline(&canvas, x: cell.x, y: cell.y, size: size) }
            }
            // The same encoder as getImage: PNG, or the page as sixel/symbols for a terminal. The
            // geometry stays in the canvas's pixels either way, so clicks map the same.
            let out = try ImageEncoder.encode(canvas, output: output)
            return ThumbnailSheet(geometry: geometry,
                                  image: EncodedImage(format: out.format, width: out.width, height: out.height, data: out.bytes))
        }
    }

    /// The current photo scaled to fit W×H (upscaling allowed), centred on black.
    func preview(_ request: PreviewRequest) throws(PickerError) -> EncodedImage {
        try Session.validatePane(width: request.width, height: request.height)
        if let q = request.quality, !(1...100).contains(q) {
            throw PickerError(.outOfRange, "quality \(q) is out of range 1…100")
        }
        let output = try outputSpec(request.format, quality: request.quality, cells: request.cells)
        let session = try sessions.get(request.session)
        let photo = try currentPhoto(of: session)
        let open = try library.openPhoto(photo)
        let key = RenderKey(file: open.version, target: .preview(width: request.width, height: request.height, output))
        if let hit = cache.get(key) { return hit }
        let estimate = WorkEstimate.preview(header: photo.header, fileBytes: open.bytesToRead(maxBytes: library.maxPhotoBytes),
                                            width: request.width, height: request.height, output: request.format,
                                            maxPixels: configuration.maxPixels)
        let image = try budget.withReservation(estimate, for: photo.relativePath) { () throws(PickerError) -> EncodedImage in
            let fit = FitTarget(maxWidth: request.width, maxHeight: request.height, allowUpscale: true)
            let decode = DecodeRequest(plan: .fitted(fit), photoName: photo.fileName,
                                       maxPixels: configuration.maxPixels, memoryBytes: estimate)
            let picture = try markingFailures(open) { () throws(PickerError) -> PixelImage in
                try decoder.decode(open, decode)
            }
            var canvas = try Compositor.canvas(PixelSize(width: request.width, height: request.height), colour: .black)
            let at = FitMath.centred(picture.size, in: canvas.size)
            Compositor.draw(picture, onto: &canvas, x: at.x, y: at.y)
            let out = try ImageEncoder.encode(canvas, output: output)
            return EncodedImage(format: out.format, width: out.width, height: out.height, data: out.bytes)
        }
        cache.put(key, image)
        return image
    }
}
