import PickerProtocol
import Testing
@testable import PickerEngine

/// The session's photo order: one definition for listings, indexes, steps and the grid.
@Suite struct PhotoOrderingTests {
    private static func photo(_ path: String, exif: String?, mtime: Int64) -> Photo {
        let parts = path.split(separator: "/")
        return Photo(albumName: parts.dropLast().joined(separator: "/"), fileName: String(parts.last ?? ""),
                     relativePath: path,
                     header: ImageHeader(format: .jpeg, storedWidth: 1, storedHeight: 1, dateTimeOriginal: exif),
                     byteSize: 1, mtimeSeconds: mtime)
    }

    /// Name order IMG_1, IMG_2, IMG_3, IMG_10, IMG_11; IMG_3 and IMG_11 have no EXIF date.
    static let trip = Album(name: "trip", kind: .folder(relativePath: "trip"), photos: [
        photo("trip/IMG_1.jpg", exif: "2020:01:01 00:00:00", mtime: 500),
        photo("trip/IMG_2.jpg", exif: "2023:01:01 00:00:00", mtime: 400),
        photo("trip/IMG_3.jpg", exif: nil, mtime: 9_999_999_999),
        photo("trip/IMG_10.jpg", exif: "2021:01:01 00:00:00", mtime: 300),
        photo("trip/IMG_11.jpg", exif: nil, mtime: 1),
    ])

    @Test func dateOrderIsNewestFirstWithUndatedPhotosAfterInNameOrder() {
        let order = Self.trip.photos(sortedBy: .date).map(\.fileName)
        // IMG_3's mtime is the newest of all, yet it stays among the undated, after IMG_1 (2020).
        #expect(order == ["IMG_2.jpg", "IMG_10.jpg", "IMG_1.jpg", "IMG_3.jpg", "IMG_11.jpg"])
    }

    @Test func nameOrderOfAFolderIsItsOwnOrderWithoutAPermutation() {
        #expect(PhotoOrdering.permutation(of: Self.trip.photos, isAllPhotos: false, order: .name) == nil)
        #expect(Self.trip.photos(sortedBy: .name) == Self.trip.photos)
    }

    @Test func nameOrderOfAllPhotosIsItsOwnNewestFirstOrder() {
        let all = Album(name: LibrarySnapshot.allPhotosName, kind: .allPhotos, photos: [
            Self.photo("b/IMG_1.jpg", exif: "2024:01:01 00:00:00", mtime: 0),
            Self.photo("a/IMG_10.jpg", exif: nil, mtime: 0),
            Self.photo("a/IMG_2.jpg", exif: nil, mtime: 0),
            Self.photo("root.jpg", exif: nil, mtime: 0),
        ])
        #expect(PhotoOrdering.permutation(of: all.photos, isAllPhotos: true, order: .name) == nil)
        #expect(all.photos(sortedBy: .name) == all.photos)
    }

    @Test func equalDatesFallBackToNameThenNewerMtime() {
        let album = Album(name: "x", kind: .folder(relativePath: "x"), photos: [
            Self.photo("x/b.jpg", exif: "2022:05:05 05:05:05", mtime: 1),
            Self.photo("x/a.jpg", exif: "2022:05:05 05:05:05", mtime: 1),
        ])
        #expect(album.photos(sortedBy: .date).map(\.fileName) == ["a.jpg", "b.jpg"])
    }

    @Test func anOrderedAlbumIndexesPositionsAndSelectorsAgree() throws {
        let ordered = AlbumOrderCache().ordered(Self.trip, .date)
        #expect(ordered.count == 5)
        #expect(ordered[0].fileName == "IMG_2.jpg")
        #expect(ordered.position(ofPhotoAt: "trip/IMG_1.jpg") == 2)
        #expect(ordered.position(ofPhotoAt: "trip/none.jpg") == nil)
        #expect(try ordered.photo(.index(2)).fileName == "IMG_10.jpg")
        #expect(try ordered.photo(.name("IMG_3.jpg")).relativePath == "trip/IMG_3.jpg")
        #expect(ordered.photos(in: 3..<99).map(\.fileName) == ["IMG_3.jpg", "IMG_11.jpg"])
        #expect(throws: PickerError.self) { try ordered.photo(.index(6)) }
    }

    @Test func theCacheSortsAgainWhenTheAlbumChanges() {
        let cache = AlbumOrderCache()
        #expect(cache.ordered(Self.trip, .date)[0].fileName == "IMG_2.jpg")
        var changed = Self.trip
        changed.photos.append(Self.photo("trip/IMG_12.jpg", exif: "2025:01:01 00:00:00", mtime: 0))
        let again = cache.ordered(changed, .date)
        #expect(again.count == 6)
        #expect(again[0].fileName == "IMG_12.jpg")
        #expect(cache.ordered(Self.trip, .date)[0].fileName == "IMG_2.jpg")
    }
}

/// The order is saved with the session and checked when it is read back.
@Suite struct SavedSortOrderTests {
    @Test func aSavedOrderIsRestoredAndAMissingOneMeansName() throws {
        var s = try Session(NewSession(name: "a", width: 100, height: nil))
        s.sort = .date
        let plain = try Session(NewSession(name: "b", width: 100, height: nil))
        let restored = try SavedSessions.decode(try SavedSessions.encode([s, plain]), from: "sessions.json")
        #expect(restored["a"]?.order == .date)
        #expect(restored["b"]?.sort == nil)
        #expect(restored["b"]?.order == .name)
    }

    @Test func anUnknownOrderDropsOnlyThatSession() throws {
        let json = """
        {"version":1,"sessions":[
          {"name":"bad","title":"T","width":100,"maxSelection":10,"selection":[],"sort":"size"},
          {"name":"good","title":"T","width":100,"maxSelection":10,"selection":[],"sort":"date"}]}
        """
        let restored = try SavedSessions.decode(Array(json.utf8), from: "sessions.json")
        #expect(restored.keys.sorted() == ["good"])
        #expect(restored["good"]?.order == .date)
    }
}
