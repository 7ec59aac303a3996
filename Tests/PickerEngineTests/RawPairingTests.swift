import Foundation
import PickerProtocol
import Testing
@testable import PickerEngine

private typealias Support = LibraryTestSupport

/// A camera's RAW+JPEG pair is one photo, the JPEG (`RawPairing`): the rule as a pure function,
/// then a library whose folders are scanned whole and rescanned folder by folder.
@Suite struct RawPairingTests {
    private static func photo(_ name: String, _ format: PhotoFormat, folder: String = "A") -> Photo {
        Photo(albumName: folder, fileName: name, relativePath: folder + "/" + name,
              header: ImageHeader(format: format, storedWidth: 4, storedHeight: 3), byteSize: 1, mtimeSeconds: 1)
    }

    private func pair(_ photos: [Photo]) -> (listed: [String], companions: [String: String]) {
        let (listed, companions) = RawPairing.pair(photos)
        return (listed.map(\.fileName), companions.mapValues(\.fileName))
    }

    @Test func aRawAndAJPEGOfOneStemAreTheJPEGWithTheRawAsCompanion() {
        let (listed, companions) = pair([Self.photo("IMG_1.CR2", .raw), Self.photo("IMG_1.JPG", .jpeg),
                                         Self.photo("IMG_2.NEF", .raw), Self.photo("IMG_3.jpg", .jpeg)])
        #expect(listed == ["IMG_1.JPG", "IMG_2.NEF", "IMG_3.jpg"])
        #expect(companions == ["A/IMG_1.JPG": "IMG_1.CR2"])
    }

    @Test func extensionsAreNotComparedButStemsAreExactly() {
        #expect(pair([Self.photo("IMG_1.cr2", .raw), Self.photo("IMG_1.JPEG", .jpeg)]).companions == ["A/IMG_1.JPEG": "IMG_1.cr2"])
        #expect(pair([Self.photo("IMG_1.CR2", .raw), Self.photo("img_1.jpg", .jpeg)]).listed == ["IMG_1.CR2", "img_1.jpg"])
        // The stem ends at the last dot.
        #expect(pair([Self.photo("a.b.DNG", .raw), Self.photo("a.b.jpg", .jpeg)]).listed == ["a.b.jpg"])
        #expect(pair([Self.photo("a.b.DNG", .raw), Self.photo("a.jpg", .jpeg)]).listed.count == 2)
    }

    @Test func onlyARawAndAJPEGByTheirBytesPairAndNeverAmbiguously() {
        // A PNG or a second JPEG with the stem: no guessing, every file listed.
        #expect(pair([Self.photo("IMG_1.CR2", .raw), Self.photo("IMG_1.png", .png)]).companions.isEmpty)
        #expect(pair([Self.photo("IMG_1.CR2", .raw), Self.photo("IMG_1.jpg", .jpeg), Self.photo("IMG_1.jpeg", .jpeg)])
            .listed.count == 3)
        #expect(pair([Self.photo("IMG_1.CR2", .raw), Self.photo("IMG_1.DNG", .raw), Self.photo("IMG_1.jpg", .jpeg)])
            .listed.count == 3)
        // Names without a stem pair nothing.
        #expect(pair([Self.photo(".CR2", .raw), Self.photo(".jpg", .jpeg)]).listed.count == 2)
        #expect(pair([Self.photo("RAW", .raw), Self.photo("RAW", .jpeg, folder: "A")]).listed.count == 2)
    }

    private static let dng = Support.packageRoot + "/Tests/Fixtures/raw/photoprism_canon_eos_6d.dng"

    private func names(_ s: LibrarySnapshot, _ album: String) -> [String] {
        s.albums.first { $0.name == album }?.photos.map(\.fileName) ?? []
    }

    @Test func scansAndFolderRescansHideTheRawOnlyWhileItsJPEGIsThere() throws {
        try Support.withTemporaryTree { tmp in
            let root = tmp + "/lib"
            try Support.makeFolder(root + "/A")
            try FileManager.default.copyItem(atPath: Self.dng, toPath: root + "/A/IMG_1.DNG")
            try Support.write(Support.jpeg(width: 4, height: 3), to: root + "/A/IMG_1.JPG")
            try Support.write(Support.jpeg(width: 4, height: 3), to: root + "/top.jpg")
            let library = PhotoLibrary(root: root)
            let first = library.rescan().snapshot
            #expect(names(first, "A") == ["IMG_1.JPG"] && first.photoCount == 2)
            let jpeg = try #require(library.photo(relativePath: "A/IMG_1.JPG"))
            #expect(first.rawCompanion(of: jpeg)?.relativePath == "A/IMG_1.DNG")
            // The hidden RAW is indexed: a rescan of nothing changed reports nothing.
            #expect(library.photo(relativePath: "A/IMG_1.DNG")?.format == .raw)
            #expect(library.rescan().changes.isEmpty)
            #expect(try #require(library.rescanFolders(["A"])).changes.isEmpty)

            try FileManager.default.removeItem(atPath: root + "/A/IMG_1.JPG")
            let alone = try #require(library.rescanFolders(["A"]))
            #expect(alone.changes.sorted() == LibraryChangeSet(added: [], removed: ["A/IMG_1.JPG"], changed: []))
            #expect(names(alone.snapshot, "A") == ["IMG_1.DNG"] && alone.snapshot.photoCount == 2)

            try Support.write(Support.jpeg(width: 4, height: 3), to: root + "/A/IMG_1.JPG")
            let paired = try #require(library.rescanFolders(["A"]))
            #expect(names(paired.snapshot, "A") == ["IMG_1.JPG"])
            #expect(paired.snapshot.allPhotos.map(\.fileName).sorted() == ["IMG_1.JPG", "top.jpg"])

            // The hidden RAW deleted: removed from the index, though it was in no listing.
            try FileManager.default.removeItem(atPath: root + "/A/IMG_1.DNG")
            let gone = try #require(library.rescanFolders(["A"]))
            #expect(gone.changes.removed == ["A/IMG_1.DNG"])
            #expect(library.photo(relativePath: "A/IMG_1.DNG") == nil)
        }
    }

    @Test func showingRawPairsListsBothFiles() throws {
        try Support.withTemporaryTree { tmp in
            let root = tmp + "/lib"
            try Support.makeFolder(root + "/A")
            try FileManager.default.copyItem(atPath: Self.dng, toPath: root + "/A/IMG_1.DNG")
            try Support.write(Support.jpeg(width: 4, height: 3), to: root + "/A/IMG_1.JPG")
            let library = PhotoLibrary(root: root, showsRawPairs: true)
            let snapshot = library.rescan().snapshot
            #expect(names(snapshot, "A") == ["IMG_1.DNG", "IMG_1.JPG"] && snapshot.photoCount == 2)
            try Support.write(Support.jpeg(width: 5, height: 3), to: root + "/A/IMG_2.jpg")
            #expect(names(try #require(library.rescanFolders(["A"])).snapshot, "A") == ["IMG_1.DNG", "IMG_1.JPG", "IMG_2.jpg"])
        }
    }
}
