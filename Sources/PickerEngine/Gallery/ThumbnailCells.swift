import PickerProtocol
import PickerSystem

/// Makes square fill-and-crop cells for the grid: from memory, else from the shared
/// freedesktop thumbnail cache, else from the photo (writing the shared thumbnail back).
/// Never throws: a photo that cannot be read becomes a placeholder cell and its failure is logged.
final class ThumbnailCells: Sendable {
    private let memory: BoundedCache<PixelImage>
    private let shared: SharedThumbnailStore?
    private let library: PhotoLibrary
    private let maxPixels: Int
    private let budget: WorkBudget

    init(library: PhotoLibrary, shared: SharedThumbnailStore?, capacityBytes: Int, maxPixels: Int,
         budget: WorkBudget) {
        self.library = library
        self.budget = budget
        self.shared = shared
        self.memory = BoundedCache(capacityBytes: capacityBytes)
        self.maxPixels = maxPixels
    }

    /// A `size`×`size` RGB cell for `photo`.
    func cell(for photo: Photo, size: Int, root: String) -> PixelImage {
        let key = RenderKey(path: photo.relativePath, fileSize: photo.byteSize, mtimeSeconds: photo.mtimeSeconds,
                            mtimeNanoseconds: photo.mtimeNanoseconds, width: size, height: size, format: .png,
                            quality: 0, variant: 1)
        if let hit = memory.get(key) { return hit }
        let made = make(photo, size: size, absolutePath: root + "/" + photo.relativePath)
        memory.put(key, made)
        return made
    }

    private func make(_ photo: Photo, size: Int, absolutePath: String) -> PixelImage {
        let box = PixelSize(width: size, height: size)
        let flavor = ThumbnailFlavor.smallest(coveringShortSide: size, displayWidth: photo.header.displayWidth,
                                              displayHeight: photo.header.displayHeight)
        if let shared, let flavor {
            if let thumb = shared.lookup(absolutePath: absolutePath, mtime: photo.mtimeSeconds, flavor: flavor),
               let cell = crop(thumb, to: box) {
                return cell
            }
            if shared.hasFailure(absolutePath: absolutePath, mtime: photo.mtimeSeconds) {
                return placeholder(size)
            }
        }
        do {
            let fileBytes = Int(min(max(0, photo.byteSize), Int64(library.maxPhotoBytes)))
            // With a shared store the decode is for the (larger) flavor's box.
            let estimate = WorkEstimate.thumbnailCell(header: photo.header, fileBytes: fileBytes,
                                                      box: max(size, flavor?.rawValue ?? 0), maxPixels: maxPixels)
            return try budget.withReservation(estimate, for: photo.relativePath) { () throws(PickerError) -> PixelImage in
                try decodeCell(photo, size: size, flavor: flavor, absolutePath: absolutePath)
            }
        } catch {
            Log.error("thumbnail for \(photo.relativePath): \(error.message)")
            shared?.recordFailure(absolutePath: absolutePath, mtime: photo.mtimeSeconds)
            return placeholder(size)
        }
    }

    /// Reads and decodes the photo into a cell (and the shared thumbnail, when there is a store).
    private func decodeCell(_ photo: Photo, size: Int, flavor: ThumbnailFlavor?,
                            absolutePath: String) throws(PickerError) -> PixelImage {
        let box = PixelSize(width: size, height: size)
        let file = try library.readPhotoFile(photo)
        let header = try ImageHeaderReader.read(bytes: file.bytes, name: photo.fileName)
        if let shared, let flavor {
            // The shared thumbnail: fit in the flavor's box, never upscaled.
            let thumb = try ImageRenderer.fittedUpright(
                data: file.bytes, header: header, photoName: photo.fileName,
                fit: FitTarget(maxWidth: flavor.rawValue, maxHeight: flavor.rawValue, allowUpscale: false),
                maxPixels: maxPixels)
            shared.store(thumb, absolutePath: absolutePath,
                         mtime: file.mtimeSeconds, fileSize: file.size, flavor: flavor)
            return crop(thumb, to: box) ?? placeholder(size)
        }
        let cover = FitMath.cover(width: header.displayWidth, height: header.displayHeight, box: box).scaled
        let upright = try ImageRenderer.decodeUpright(data: file.bytes, header: header, photoName: photo.fileName,
                                                      minimumDisplaySize: (cover.width, cover.height),
                                                      maxPixels: maxPixels)
        return crop(upright, to: box) ?? placeholder(size)
    }

    /// Scales to fill the box and crops the centre; RGBA is flattened on the grid background.
    private func crop(_ image: PixelImage, to box: PixelSize) -> PixelImage? {
        let rect = FitMath.coverSourceCrop(width: image.width, height: image.height, box: box)
        guard let cell = try? Resampler.resample(image, to: box, crop: rect) else { return nil }
        return try? Compositor.flatten(cell, over: GridPainter.background)
    }

    private func placeholder(_ size: Int) -> PixelImage {
        Compositor.canvas(PixelSize(width: size, height: size), colour: GridPainter.placeholder)
    }
}
