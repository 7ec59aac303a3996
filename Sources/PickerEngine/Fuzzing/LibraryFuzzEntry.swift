#if canImport(Glibc)
import Glibc
#endif
import PickerProtocol
import Synchronization

/// Fuzz target "library": one file put in a library, driven down the whole path the daemon takes
/// with it (issue 21: the findings were not in a decoder but between the header and the render):
///
/// 1. **header**: the file is written into a real library folder and `PhotoLibrary.rescan()` reads
///    its header against the configured cap (`fuzzMaxPixels`, as `--max-megapixels` would set it);
///    a listed photo is within the cap, or listed too large without a size;
/// 2. **index**: the scan's rows are saved to a real `LibraryIndexStore` (SQLite) and loaded back:
///    the row is the photo as listed, and no row is kept for a photo listed too large;
/// 3. **estimate**: the work estimates of the listed header never trap and are never negative;
/// 4. **render**: a real `PickerService` on that library answers `getImage`, `preview` and
///    `thumbnails` for it: a picture, or `corrupt_image`/`unsupported_image`/`image_too_large`
///    (always `image_too_large` for a photo listed too large), and the service then still answers.
///
/// Inputs come from `StructureMutator` (the libFuzzer target's custom mutator) as well as
/// libFuzzer's byte mutations. One service and library folder serve every run (made on first use
/// in `$TMPDIR`, removed when the process exits normally); each run renames a new file into
/// place, so every run is a new file version.
public enum LibraryFuzzEntry {
    /// The configured cap of the service under test: small, so an accepted header costs a few MB.
    public static let fuzzMaxPixels = 4_000_000
    static let allowed: Set<ErrorCode> = [.corruptImage, .unsupportedImage, .imageTooLarge]

    public static func run(_ bytes: [UInt8]) -> FuzzFindings {
        var findings = FuzzFindings()
        guard let harness = Harness.shared else {
            findings.expect(false, "harness: no temporary library folder")
            return findings
        }
        harness.index.withLock { store in harness.run(bytes, index: store, &findings) }
        return findings
    }

    /// The library folder, its index and the service, made once.
    final class Harness: Sendable {
        static let shared: Harness? = Harness()
        /// The temporary folder holding the library and its index.
        let folder: String
        let root: String
        let service: PickerService
        /// The index, used under this lock: one run at a time.
        let index: Mutex<LibraryIndexStore>

        init?() {
            let base = ProcessInfoLite.temporaryDirectory + "/pickerd-fuzz-library-XXXXXX"
            var template = Array(base.utf8CString)
            guard let made = mkdtemp(&template) else { return nil }
            let folder = String(cString: made)
            self.folder = folder
            atexit { Harness.shared.map { removeTree($0.folder) } }
            root = folder + "/library"
            guard mkdir(root, 0o700) == 0, mkdir(root + "/A", 0o700) == 0, mkdir(folder + "/index", 0o700) == 0 else { return nil }
            var configuration = EngineConfiguration(libraryRoot: root, stateDirectory: nil, cacheBytes: 8 << 20,
                                                    maxPixels: LibraryFuzzEntry.fuzzMaxPixels, serverVersion: "fuzz")
            configuration.workers = 1
            configuration.prefetch = false
            configuration.workBudgetBytes = 256 << 20
            service = PickerService(configuration: configuration)
            index = Mutex(LibraryIndexStore(directory: folder + "/index", rootPath: root, maxPixels: LibraryFuzzEntry.fuzzMaxPixels))
            _ = service.handle(.sessionNew(NewSession(name: "f", width: 48, height: 32)))
        }

        func run(_ bytes: [UInt8], index: LibraryIndexStore, _ findings: inout FuzzFindings) {
            guard place(bytes) else { return findings.expect(false, "harness: cannot write the file") }
            let (_, changes) = service.library.rescan()
            let photo = service.library.photo(relativePath: "A/f.img")
            if let photo { checkListed(photo, &findings) }
            checkIndex(changes, photo, index: index, &findings)
            guard let photo else { return }
            checkEstimates(photo, fileBytes: bytes.count, &findings)
            _ = service.handle(.selectAlbum(session: "f", .name("A")))
            _ = service.handle(.selectPhoto(session: "f", .name("f.img")))
            let fit = 16 + bytes.count % 64  // pane sizes start at 16
            let requests: [(String, Request)] = [
                ("getImage", .getImage(ImageRequest(session: "f", noCache: true))),
                ("preview", .preview(PreviewRequest(session: "f", width: fit, height: fit))),
                ("thumbnails", .thumbnails(ThumbnailRequest(session: "f", cellSize: fit))),
            ]
            for (step, request) in requests { checkReply(step, service.handle(request), photo, &findings) }
            if case .error(let e) = service.handle(.ping) { findings.expect(false, "ping after the file: \(e.message)") }
        }

        /// Writes `bytes` beside the library file and renames it into place (a new inode each run).
        private func place(_ bytes: [UInt8]) -> Bool {
            let temporary = root + "/A/.f.tmp"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return false }
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            return written == bytes.count && rename(temporary, root + "/A/f.img") == 0
        }

        private func checkListed(_ photo: Photo, _ findings: inout FuzzFindings) {
            let header = photo.header
            if let reason = photo.tooLarge {
                findings.expect(header.storedWidth == 0 && header.storedHeight == 0,
                                "header: listed too large but keeps a size \(header.storedWidth)x\(header.storedHeight)")
                findings.expect(reason.hasPrefix("too large"), "header: too-large reason \(reason)")
            } else {
                findings.expect(header.storedWidth > 0 && header.storedHeight > 0
                                && PixelCount.pixels(header.storedWidth, header.storedHeight) <= LibraryFuzzEntry.fuzzMaxPixels,
                                "header: listed \(header.storedWidth)x\(header.storedHeight), outside 1…\(LibraryFuzzEntry.fuzzMaxPixels) pixels")
            }
        }

        /// The index keeps the photo as listed, or no row for one listed too large (or not listed).
        private func checkIndex(_ changes: LibraryChangeSet, _ photo: Photo?, index: LibraryIndexStore,
                                _ findings: inout FuzzFindings) {
            index.save(changes, photos: service.library.photosByPath)
            let rows = index.load() ?? []
            let row = rows.first { $0.relativePath == "A/f.img" }
            if let photo, photo.tooLarge == nil {
                findings.expect(row?.header == photo.header && row?.version == photo.version,
                                "index: row \(String(describing: row?.header)) for listed \(photo.header)")
            } else {
                findings.expect(row == nil, "index: kept a row \(String(describing: row?.header)) for a photo not listed with a size")
            }
        }

        private func checkEstimates(_ photo: Photo, fileBytes: Int, _ findings: inout FuzzFindings) {
            let fit = FitTarget(maxWidth: 48, maxHeight: 32)
            let cap = LibraryFuzzEntry.fuzzMaxPixels
            let estimates = [
                WorkEstimate.render(header: photo.header, fileBytes: fileBytes, fit: fit, output: .png, maxPixels: cap),
                WorkEstimate.preview(header: photo.header, fileBytes: fileBytes, width: 64, height: 64, output: .png, maxPixels: cap),
                WorkEstimate.thumbnailCell(header: photo.header, fileBytes: fileBytes, box: 256, maxPixels: cap),
            ]
            findings.expect(estimates.allSatisfy { $0 >= 0 }, "estimate: negative \(estimates)")
        }

        private func checkReply(_ step: String, _ reply: Reply, _ photo: Photo, _ findings: inout FuzzFindings) {
            switch reply {
            case .error(let e):
                findings.expectRefusal(e, in: LibraryFuzzEntry.allowed, from: step)
                if photo.tooLarge != nil {
                    findings.expect(e.code == .imageTooLarge, "\(step): listed too large, got \(e.code): \(e.message)")
                }
            case .image(let image):
                findings.expect(photo.tooLarge == nil, "\(step): a picture of a photo listed too large")
                findings.expect(!image.data.isEmpty && image.width > 0 && image.height > 0, "\(step): empty picture")
            case .thumbnails(let sheet):
                let broken = sheet.geometry.cells.first?.broken ?? false
                findings.expect(photo.tooLarge == nil || broken, "\(step): a photo listed too large is not a broken cell")
            default:
                break
            }
        }
    }
}

/// Removes `path` and everything beneath it (a folder this process made; symlinks are unlinked, not followed).
private func removeTree(_ path: String) {
    if let dir = opendir(path) {
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            let child = path + "/" + name
            if entry.pointee.d_type == UInt8(DT_DIR) { removeTree(child) } else { unlink(child) }
        }
        closedir(dir)
    }
    rmdir(path)
}

/// `$TMPDIR` (else /tmp) without Foundation.
enum ProcessInfoLite {
    static var temporaryDirectory: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }
}
