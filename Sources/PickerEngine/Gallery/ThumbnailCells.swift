import PickerProtocol
import PickerSystem

/// Makes square fill-and-crop cells for the grid: from memory, else from the photo's own
/// embedded thumbnail, else from the shared freedesktop thumbnail cache, else from a decode of the
/// photo (writing the shared thumbnail back). Never throws: a photo that cannot be read becomes a
/// placeholder cell, its failure is logged and a decode failure marks the photo broken.
final class ThumbnailCells: Sendable {
    private let memory: BoundedCache<PixelImage>
    private let shared: SharedThumbnailStore?
    private let library: PhotoLibrary
    private let maxPixels: Int
    private let budget: WorkBudget
    private let decoder: PictureDecoding

    init(library: PhotoLibrary, decoder: PictureDecoding, shared: SharedThumbnailStore?, capacityBytes: Int,
         maxPixels: Int, budget: WorkBudget) {
        self.library = library
        self.decoder = decoder
        self.budget = budget
        self.shared = shared
        self.memory = BoundedCache(capacityBytes: capacityBytes)
        self.maxPixels = maxPixels
    }

    /// A `size`×`size` RGB cell for `photo`. The photo is opened beneath the library root first and
    /// every cache (memory, shared thumbnails) is asked about the version of that open file.
    /// `newlyBroken` is called once, when this cell is the first to find the photo's version broken,
    /// whichever path asked (the grid, or the background prefetch of the first page).
    func cell(for photo: Photo, size: Int, newlyBroken: (Photo) -> Void) -> PixelImage {
        let open: OpenPhoto
        do throws(PickerError) {
            open = try library.openPhoto(photo)
        } catch {
            Log.error("thumbnail for \(photo.relativePath): \(error.message)")
            return placeholder(size)
        }
        let key = RenderKey(file: open.version, target: .thumbnailCell(size: size))
        if let hit = memory.get(key) { return hit }
        let made = make(open, size: size, newlyBroken: newlyBroken)
        memory.put(key, made)
        return made
    }

    /// Reads the photo (under a reservation of the work budget) and makes its cell from the first
    /// source that serves; a failure is logged and becomes a placeholder, and one that marked the
    /// photo broken (`decodeCell`) is recorded in the shared store's failure folder too.
    private func make(_ open: OpenPhoto, size: Int, newlyBroken: (Photo) -> Void) -> PixelImage {
        let photo = open.photo
        let absolutePath = LibraryPath.join(library.snapshot.rootRealPath, photo.relativePath)
        let flavor = ThumbnailFlavor.smallest(coveringShortSide: size, displayWidth: photo.header.displayWidth,
                                              displayHeight: photo.header.displayHeight)
        do {
            let fileBytes = open.bytesToRead(maxBytes: library.maxPhotoBytes)
            // With a shared store the decode is for the (larger) flavor's box.
            let estimate = WorkEstimate.thumbnailCell(header: photo.header, fileBytes: fileBytes,
                                                      box: max(size, flavor?.rawValue ?? 0), maxPixels: maxPixels)
            return try budget.withReservation(estimate, for: photo.relativePath) { () throws(PickerError) -> PixelImage in
                try makeFromSources(open, size: size, flavor: flavor, absolutePath: absolutePath, memory: estimate,
                                    newlyBroken: newlyBroken)
            }
        } catch {
            Log.error("thumbnail for \(photo.relativePath): \(error.message)")
            // Only a decode that found the file broken is a failure worth remembering in the shared store.
            if library.broken.reason(for: open.version) != nil {
                shared?.recordFailure(absolutePath: absolutePath, mtime: open.status.mtimeSeconds)
            }
            return placeholder(size)
        }
    }

    /// The cell's sources in order (issue 14 item 5): the file's own thumbnail when it covers the
    /// cell with the picture's aspect (it costs no decode of the picture), then the shared
    /// freedesktop thumbnail at the flavor covering the cell, then a shrink-on-load decode.
    private func makeFromSources(_ open: OpenPhoto, size: Int, flavor: ThumbnailFlavor?, absolutePath: String,
                                 memory: Int, newlyBroken: (Photo) -> Void) throws(PickerError) -> PixelImage {
        let photo = open.photo
        let box = PixelSize(width: size, height: size)
        // Only the start of a file that can carry a thumbnail is read before the shared store.
        let prefixBytes = EmbeddedThumbnail.prefix(for: photo.header.format)
        // A file cut short may keep a whole thumbnail of the picture it lost: it is decoded instead,
        // so its failure marks it broken rather than a good-looking cell hiding it.
        if prefixBytes > 0,
           EmbeddedThumbnail.endLooksComplete(try open.readSuffix(EmbeddedThumbnail.tailBytes), format: photo.header.format) {
            let cover = FitMath.cover(width: photo.header.displayWidth, height: photo.header.displayHeight, box: box).scaled
            if let thumb = decoder.embeddedThumbnail(open, header: photo.header,
                                                     covering: PixelSize(width: cover.width, height: cover.height),
                                                     maxPixels: maxPixels),
               let cell = crop(thumb, to: box) {
                return cell
            }
        }
        if let shared, let flavor,
           let thumb = shared.lookup(absolutePath: absolutePath, mtime: open.status.mtimeSeconds, flavor: flavor),
           let cell = crop(thumb, to: box) {
            return cell
        }
        return try decodeCell(open, size: size, flavor: flavor, absolutePath: absolutePath, memory: memory,
                              newlyBroken: newlyBroken)
    }

    /// Decodes the photo into a cell (and the shared thumbnail, when there is a store); a decoder
    /// failure that means the photo cannot be shown marks it broken (the sheet draws the broken tile).
    private func decodeCell(_ open: OpenPhoto, size: Int, flavor: ThumbnailFlavor?, absolutePath: String,
                            memory: Int, newlyBroken: (Photo) -> Void) throws(PickerError) -> PixelImage {
        let photo = open.photo
        if let shared, let flavor {
            // The shared thumbnail: fit in the flavor's box, never upscaled.
            let fit = FitTarget(maxWidth: flavor.rawValue, maxHeight: flavor.rawValue, allowUpscale: false)
            let thumb = try decoder.decode(open, DecodeRequest(plan: .fitted(fit), photoName: photo.fileName,
                                                               maxPixels: maxPixels, memoryBytes: memory),
                                           markingBrokenIn: library.broken, newlyBroken: newlyBroken)
            shared.store(thumb, absolutePath: absolutePath, mtime: open.status.mtimeSeconds,
                         fileSize: open.status.size, flavor: flavor)
            return crop(thumb, to: PixelSize(width: size, height: size)) ?? placeholder(size)
        }
        // Decoded and cropped where it is decoded (HEIF's thumbnail item is taken when it covers the cell).
        return try decoder.decode(open, DecodeRequest(plan: .cell(size: size), photoName: photo.fileName,
                                                      maxPixels: maxPixels, memoryBytes: memory),
                                  markingBrokenIn: library.broken, newlyBroken: newlyBroken)
    }

    /// Scales to fill the box and crops the centre; RGBA is flattened on the grid background.
    private func crop(_ image: PixelImage, to box: PixelSize) -> PixelImage? {
        CellCrop.cell(image, box: box)
    }

    /// A grey cell; `size` is 16…1024 (checked by the caller), far inside the canvas limit.
    private func placeholder(_ size: Int) -> PixelImage {
        let grey = GridPainter.placeholder
        return (try? Compositor.canvas(PixelSize(width: size, height: size), colour: grey))
            ?? PixelImage(pixelOf: grey)
    }
}
