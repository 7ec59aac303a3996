import Foundation
import Testing
@testable import PickerEngine
import PickerProtocol
import PickerTestSupport

@Suite("LibraryScanner")
struct LibraryScannerTests {
    typealias Support = LibraryTestSupport

    private func scan(_ root: String) throws -> LibrarySnapshot {
        try LibraryScanner(root: root).scan()
    }

    private func indexedPaths(_ snapshot: LibrarySnapshot) -> Set<String> {
        Set(snapshot.allPhotos.map(\.relativePath))
    }

    @Test func hiddenFilesAndFoldersAreSkipped() throws {
        try Support.withTemporaryTree { root in
            try Support.write(Support.png(width: 2, height: 2), to: root + "/visible.png")
            try Support.write(Support.png(width: 2, height: 2), to: root + "/.hidden.png")
            try Support.write(Support.png(width: 2, height: 2), to: root + "/.thumbnails/t.png")
            try Support.write(Support.png(width: 2, height: 2), to: root + "/Trip/.cache/c.png")
            let snapshot = try scan(root)
            #expect(indexedPaths(snapshot) == ["visible.png"])
        }
    }

    @Test func formatIsJudgedByContentNotExtension() throws {
        try Support.withTemporaryTree { root in
            try Support.write(Array("just some text".utf8), to: root + "/fake.jpg")
            try Support.write(Support.png(width: 5, height: 6), to: root + "/real.txt")
            try Support.write(Support.jpeg(width: 7, height: 8), to: root + "/photo.jpg")
            let snapshot = try scan(root)
            #expect(indexedPaths(snapshot) == ["real.txt", "photo.jpg"])
            #expect(snapshot.allPhotos.first { $0.fileName == "real.txt" }?.format == .png)
            #expect(snapshot.skipped.contains { $0.relativePath == "fake.jpg" && $0.reason == .notAnImage })
        }
    }

    @Test func damagedHeadersAreLeftOutAndListedWithTheReason() throws {
        try Support.withTemporaryTree { root in
            try Support.write([0xFF, 0xD8, 0xFF, 0xD9], to: root + "/nosof.jpg")
            try Support.write(Support.jpeg(width: 4, height: 4), to: root + "/ok.jpg")
            let snapshot = try scan(root)
            #expect(indexedPaths(snapshot) == ["ok.jpg"])
            let entry = try #require(snapshot.skipped.first { $0.relativePath == "nosof.jpg" })
            #expect(entry.reason == .damagedHeader)
            #expect(entry.message.contains("nosof.jpg"))
        }
    }

    @Test func symlinkToAFileOutsideTheRootIsSkipped() throws {
        try Support.withTemporaryTree { tmp in
            let root = tmp + "/lib"
            try Support.write(Support.png(width: 2, height: 2), to: tmp + "/outside/secret.png")
            try Support.write(Support.png(width: 2, height: 2), to: root + "/in.png")
            try Support.symlink(tmp + "/outside/secret.png", at: root + "/link.png")
            let snapshot = try scan(root)
            #expect(indexedPaths(snapshot) == ["in.png"])
            #expect(snapshot.skipped.contains { $0.relativePath == "link.png" && $0.reason == .outsideRoot })
        }
    }

    @Test func symlinkedFolderOutsideTheRootIsSkipped() throws {
        try Support.withTemporaryTree { tmp in
            let root = tmp + "/lib"
            try Support.write(Support.png(width: 2, height: 2), to: tmp + "/outside/a.png")
            try Support.write(Support.png(width: 2, height: 2), to: root + "/in.png")
            try Support.symlink(tmp + "/outside", at: root + "/Escape")
            try Support.symlink("../outside", at: root + "/Relative")
            let snapshot = try scan(root)
            #expect(indexedPaths(snapshot) == ["in.png"])
            #expect(snapshot.skipped.filter { $0.reason == .outsideRoot }.count == 2)
        }
    }

    @Test func symlinksInsideTheRootAreFollowed() throws {
        try Support.withTemporaryTree { root in
            try Support.write(Support.png(width: 2, height: 2), to: root + "/Real/a.png")
            try Support.write(Support.png(width: 3, height: 3), to: root + "/Other/b.png")
            try Support.makeFolder(root + "/Links")
            try Support.symlink("../Other/b.png", at: root + "/Links/b-link.png")
            try Support.symlink(root + "/Real", at: root + "/Alias")  // same folder as Real: walked once
            try Support.symlink("Other", at: root + "/Shared")
            let snapshot = try scan(root)
            // Real folders win over symlinks leading to them.
            #expect(indexedPaths(snapshot) == ["Real/a.png", "Other/b.png", "Links/b-link.png"])
            #expect(snapshot.albums.map(\.name) == ["All Photos", "Links", "Other", "Real"])
        }
    }

    @Test func symlinkToAFolderNotOtherwiseReachableIsWalked() throws {
        try Support.withTemporaryTree { root in
            try Support.write(Support.png(width: 2, height: 2), to: root + "/.stash/x.png")  // hidden folder
            try Support.symlink(".stash", at: root + "/Visible")
            let snapshot = try scan(root)
            #expect(indexedPaths(snapshot) == ["Visible/x.png"])
            #expect(snapshot.albums.map(\.name) == ["All Photos", "Visible"])
        }
    }

    @Test func symlinkLoopsTerminate() throws {
        try Support.withTemporaryTree { root in
            try Support.write(Support.png(width: 2, height: 2), to: root + "/A/a.png")
            try Support.symlink("..", at: root + "/A/up")
            try Support.symlink(root, at: root + "/A/root")
            try Support.symlink("loop2", at: root + "/loop1")
            try Support.symlink("loop1", at: root + "/loop2")
            try Support.symlink("self", at: root + "/self")
            let snapshot = try scan(root)
            #expect(indexedPaths(snapshot) == ["A/a.png"])
        }
    }

    @Test func nestedAlbumsAreNamedByRelativePathInNaturalOrder() throws {
        try Support.withTemporaryTree { tmp in
            let root = tmp + "/Pictures"
            for dir in ["2024/Kyoto", "2024/Osaka 10", "2024/Osaka 9", "2023", "2024", "Empty/Deeper/Deepest"] {
                try Support.makeFolder(root + "/" + dir)
            }
            for dir in ["2024/Kyoto", "2024/Osaka 10", "2024/Osaka 9", "2023", "2024", "Empty/Deeper/Deepest"] {
                try Support.write(Support.png(width: 1, height: 1), to: root + "/" + dir + "/IMG_10.png")
                try Support.write(Support.png(width: 1, height: 1), to: root + "/" + dir + "/IMG_2.png")
            }
            try Support.write(Support.png(width: 1, height: 1), to: root + "/loose.png")
            let snapshot = try scan(root)
            #expect(snapshot.albums.map(\.name) == [
                "All Photos", "Pictures", "2023", "2024", "2024/Kyoto", "2024/Osaka 9", "2024/Osaka 10",
                "Empty/Deeper/Deepest",
            ])
            let kyoto = try snapshot.album(named: "2024/Kyoto")
            #expect(kyoto.photos.map(\.fileName) == ["IMG_2.png", "IMG_10.png"])
            #expect(kyoto.photos.allSatisfy { $0.albumName == "2024/Kyoto" })
            #expect(kyoto.photos.first?.relativePath == "2024/Kyoto/IMG_2.png")
            #expect(try snapshot.album(named: "Pictures").photos.map(\.relativePath) == ["loose.png"])
            #expect(snapshot.photoCount == 13)
            #expect(snapshot.folderAlbumCount == 7)
        }
    }

    @Test func rootAlbumNameAvoidsCollisions() {
        #expect(LibraryScanner.rootAlbumName(root: "/home/u/Pictures/", rootReal: "/x", folders: []) == "Pictures")
        #expect(LibraryScanner.rootAlbumName(root: "/home/u/Pictures", rootReal: "/x", folders: ["Pictures"])
            == "Pictures (top level)")
        #expect(LibraryScanner.rootAlbumName(root: ".", rootReal: "/data/Photos", folders: []) == "Photos")
        #expect(LibraryScanner.rootAlbumName(root: "/", rootReal: "/", folders: []) == "/")
    }

    @Test func allPhotosComesFirstNewestFirst() throws {
        try Support.withTemporaryTree { root in
            // EXIF dates beat mtimes; photos without EXIF use their mtime.
            try Support.write(Support.jpeg(width: 1, height: 1, date: "2020:01:01 10:00:00"), to: root + "/B/old-exif.jpg",
                              mtime: 1_900_000_000)
            try Support.write(Support.jpeg(width: 1, height: 1, date: "2024:06:01 10:00:00"), to: root + "/A/new-exif.jpg",
                              mtime: 1_000_000_000)
            try Support.write(Support.png(width: 1, height: 1), to: root + "/A/mtime-2022.png", mtime: 1_650_000_000)
            try Support.write(Support.png(width: 1, height: 1), to: root + "/C/mtime-2001.png", mtime: 1_000_000_000)
            let snapshot = try scan(root)
            let all = try #require(snapshot.albums.first)
            #expect(all.name == "All Photos")
            #expect(all.isAllPhotos)
            #expect(all.photos.map(\.fileName) == ["new-exif.jpg", "mtime-2022.png", "old-exif.jpg", "mtime-2001.png"])
            let newest = try #require(all.photos.first)
            #expect(newest.dateIsFromExif)
            #expect(newest.dateSeconds == ExifDateTime.secondsSinceEpoch("2024:06:01 10:00:00"))
            #expect(all.photos[1].dateIsFromExif == false)
            #expect(all.photos[1].dateSeconds == 1_650_000_000)
        }
    }

    @Test func sortByDateUsesExifThenFileNameThenMtime() {
        func photo(_ name: String, exif: String?, mtime: Int64) -> Photo {
            Photo(albumName: "A", fileName: name, relativePath: "A/" + name,
                  header: ImageHeader(format: .jpeg, storedWidth: 1, storedHeight: 1, dateTimeOriginal: exif),
                  byteSize: 1, mtimeSeconds: mtime)
        }
        let album = Album(name: "A", kind: .folder(relativePath: "A"), photos: [
            photo("IMG_1.jpg", exif: nil, mtime: 50),
            photo("IMG_10.jpg", exif: "2021:01:01 00:00:00", mtime: 10),
            photo("IMG_2.jpg", exif: "2020:01:01 00:00:00", mtime: 20),
            photo("IMG_3.jpg", exif: "2020:01:01 00:00:00", mtime: 5),
            photo("DSC_9.jpg", exif: nil, mtime: 1),
            photo("DSC_10.jpg", exif: nil, mtime: 99),
        ])
        #expect(album.photos(sortedBy: .date).map(\.fileName) == [
            "IMG_10.jpg", "IMG_2.jpg", "IMG_3.jpg", "DSC_9.jpg", "DSC_10.jpg", "IMG_1.jpg",
        ])
        #expect(album.photos(sortedBy: .name) == album.photos)
    }

    @Test func photoRecordsSizeIdentityAndDisplaySize() throws {
        try Support.withTemporaryTree { root in
            let bytes = Support.jpeg(width: 40, height: 30, orientation: 6)
            try Support.write(bytes, to: root + "/r.jpg", mtime: 1_234_567_890)
            let photo = try #require(try scan(root).allPhotos.first)
            #expect(photo.byteSize == Int64(bytes.count))
            #expect(photo.mtimeSeconds == 1_234_567_890)
            #expect(photo.inode != 0)
            #expect(photo.displayWidth == 30 && photo.displayHeight == 40)
            #expect(photo.dateIsFromExif == false)
        }
    }

    /// Root reads everything, so the scan runs in the test probe as uid 65534 (setpriv) when we are root.
    static let canScanUnprivileged = getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    @Test(.enabled(if: canScanUnprivileged, "as root this needs /usr/bin/setpriv (util-linux) to scan as another uid"))
    func unreadableFilesAndFoldersAreSkipped() throws {
        #expect(TestProbe.isBuilt, "\(TestProbe.path) is missing: run `swift build` first")
        try Support.withTemporaryTree { root in
            try Support.write(Support.png(width: 1, height: 1), to: root + "/locked.png")
            try Support.write(Support.png(width: 1, height: 1), to: root + "/Closed/x.png")
            try Support.write(Support.png(width: 1, height: 1), to: root + "/ok.png")
            chmod(root, 0o755)  // the unprivileged scanner must reach the library itself
            chmod(root + "/locked.png", 0)
            chmod(root + "/Closed", 0)
            defer { chmod(root + "/Closed", 0o755) }
            let result = getuid() == 0 ? try scanAsNobody(root) : try runChild(TestProbe.path, ["scan", root])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout.split(separator: "\n") == ["ok.png"], "\(result)")
        }
    }

    /// The probe's scan as uid 65534. The probe is copied beside the library first: a clone under a
    /// 0700 home folder is out of that uid's reach.
    private func scanAsNobody(_ root: String) throws -> ChildResult {
        let probe = root + "-probe"
        // Written through a close-on-exec descriptor: a copy made by FileManager leaves its write descriptor
        // to children other tests spawn meanwhile, and exec then fails with "Text file busy".
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestProbe.path)))
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        try #require(fd >= 0, "cannot create \(probe)")
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        chmod(probe, 0o755)
        var result = try runChild("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", probe, "scan", root])
        // A child forked by another test before our close may still hold the descriptor for an instant.
        for _ in 0..<20 where result.exitCode == 126 && result.stderr.contains("Text file busy") {
            usleep(50_000)
            result = try runChild("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", probe, "scan", root])
        }
        return result
    }

    @Test func missingRootThrowsIOError() {
        #expect(throws: PickerError.self) { try LibraryScanner(root: "/nonexistent/pickerd/library").scan() }
    }

    @Test func corpusScanIndexesEveryDecodableFile() throws {
        let root = try #require(Support.corpusRoot, "no corpus manifest")
        #expect(Support.manifest.contains { $0.expect == "decode" && $0.category != "heic" })
        #expect(Support.manifest.contains { $0.category == "heic" })
        let snapshot = try scan(root)
        let indexed = indexedPaths(snapshot)
        for file in Support.manifest where file.expect == "decode" && file.category != "heic" {
            #expect(indexed.contains(file.path), "\(file.path) should be indexed")
        }
        // HEIC/AVIF are read now: their `decode (future)` files are indexed, broken ones are not.
        for file in Support.manifest where file.category == "heic" || file.category == "avif" {
            #expect(indexed.contains(file.path) == (file.expect != "reject"), "\(file.path) (\(file.expect))")
        }
        #expect(snapshot.albums.first?.name == "All Photos")
    }
}
