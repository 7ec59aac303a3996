import Foundation
import Testing
import PickerProtocol
import PickerTestSupport
@testable import PickerEngine

/// What the header walk keeps of a RAW for listing and budgeting: its container family ("RAW
/// (CR3)" in the message line) and its largest preview, which `WorkEstimate` asks the codec to
/// judge a job by (the preview at its DCT scale when it covers the target, LibRaw's develop of
/// the sensor when none does) instead of 4 bytes a pixel of the listed size.
@Suite struct RAWEstimateTests {
    static let cap = 200_000_000

    @Test func theHeaderNamesTheContainerAndTheLargestPreview() throws {
        for (path, container, preview) in [("raw/photoprism_canon_eos_6d.dng", "DNG", PixelSize(width: 1024, height: 683)),
                                           ("raw/nomexif_canon-r6_truncated.cr3", "CR3", PixelSize(width: 1620, height: 1080))] {
            guard let (entry, bytes, _) = TestCorpus.required(path) else { continue }
            let header = try ImageHeaderReader.read(bytes: bytes, name: entry.fileName)
            #expect(header.formatName == "RAW (\(container))", "\(path): \(header.formatName)")
            #expect(header.previewWidth == preview.width && header.previewHeight == preview.height,
                    "\(path): preview \(String(describing: header.previewWidth))x\(String(describing: header.previewHeight))")
        }
    }

    /// A 24 Mpx sensor with a full-size preview: a pane decodes the preview at 1/4, a cell at 1/8.
    @Test func aCoveringPreviewIsEstimatedAtItsScaleNotTheSensors() {
        var header = ImageHeader(format: .raw, storedWidth: 6000, storedHeight: 4000)
        header.previewWidth = 6000
        header.previewHeight = 4000
        let pane = WorkEstimate.render(header: header, fileBytes: 25_000_000, fit: FitTarget(maxWidth: 600, maxHeight: 400),
                                       output: .png, maxPixels: Self.cap)
        // 1500x1000 RGB twice (decode and its shrunk copy), the fitted picture, the PNG and the file.
        #expect(pane < 25_000_000 + (12 << 20), "\(pane)")
        #expect(pane > 25_000_000 + (8 << 20), "\(pane)")
        let noPreview = ImageHeader(format: .raw, storedWidth: 6000, storedHeight: 4000)
        let developed = WorkEstimate.render(header: noPreview, fileBytes: 25_000_000, fit: FitTarget(maxWidth: 600, maxHeight: 400),
                                            output: .png, maxPixels: Self.cap)
        // LibRaw at half size: the raw plane (2 B a pixel) and a quarter of 11 B a pixel, 24 Mpx.
        #expect(developed > 25_000_000 + 110_000_000, "\(developed)")
        let cell = WorkEstimate.thumbnailCell(header: header, fileBytes: 25_000_000, box: 256, maxPixels: Self.cap)
        let developedCell = WorkEstimate.thumbnailCell(header: noPreview, fileBytes: 25_000_000, box: 256, maxPixels: Self.cap)
        #expect(cell < 25_000_000 + (20 << 20) && developedCell > 4 * cell, "cell \(cell), developed \(developedCell)")
    }

    /// A target larger than every preview is developed from the sensor, at full size when half
    /// would not cover it: more than the same sensor at half size.
    @Test func aTargetNoPreviewCoversIsEstimatedAsTheDevelop() {
        var header = ImageHeader(format: .raw, storedWidth: 6000, storedHeight: 4000)
        header.previewWidth = 1620
        header.previewHeight = 1080
        let half = WorkEstimate.render(header: header, fileBytes: 0, fit: FitTarget(maxWidth: 2400, maxHeight: 1600),
                                       output: .png, maxPixels: Self.cap)
        let full = WorkEstimate.render(header: header, fileBytes: 0, fit: FitTarget(maxWidth: 4000, maxHeight: 4000),
                                       output: .png, maxPixels: Self.cap)
        // Half size: 2 + 11/4 bytes a sensor pixel, then the 2400x1600 picture and its PNG.
        #expect(half > 24_000_000 * 4 && half < 24_000_000 * 7, "\(half)")
        #expect(full > 24_000_000 * 13, "\(full)")
    }

    /// The index keeps both, so a restart judges the same and does not see every RAW changed (schema 4).
    @Test func theIndexKeepsContainerAndPreview() throws {
        guard let (entry, bytes, _) = TestCorpus.required("raw/photoprism_canon_eos_6d.dng") else { return }
        let header = try ImageHeaderReader.read(bytes: bytes, name: entry.fileName)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rawindex-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = Photo(albumName: "raw", fileName: entry.fileName, relativePath: "raw/" + entry.fileName, header: header,
                          byteSize: Int64(bytes.count), mtimeSeconds: 1_700_000_000)
        let store = LibraryIndexStore(directory: folder.path, rootPath: "/library")
        store.save(LibraryChangeSet(added: [photo.relativePath], removed: [], changed: []), photos: [photo.relativePath: photo])
        let loaded = try #require(LibraryIndexStore(directory: folder.path, rootPath: "/library").load()?.first)
        #expect(loaded.header == photo.header, "\(loaded.header) vs \(photo.header)")
        #expect(loaded.header.formatName == "RAW (DNG)" && loaded.header.previewHeight == 683)
    }
}
