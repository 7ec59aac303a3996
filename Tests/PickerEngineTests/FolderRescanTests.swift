import Foundation
import PickerEngine
import PickerProtocol
import Testing

private typealias Support = LibraryTestSupport

/// A rescan of the folders inotify named must give the same library as a full scan would.
@Suite struct FolderRescanTests {
    private func shape(_ s: LibrarySnapshot) -> [String] {
        s.albums.map { album in album.name + ": " + album.photos.map(\.relativePath).joined(separator: ",") }
    }

    @Test func aFolderRescanEqualsAFullScan() throws {
        try Support.withTemporaryTree { tmp in
            let root = tmp + "/lib"
            for (i, path) in ["A/IMG_2.jpg", "A/IMG_10.jpg", "B/x.jpg", "C/y.jpg", "C/z.jpg"].enumerated() {
                try Support.write(Support.jpeg(width: 4, height: 3, date: "2024:01:0\(i + 1) 00:00:00"), to: root + "/" + path)
            }
            let library = PhotoLibrary(root: root)
            library.rescan()
            // In A: one removed, one added (older than all), one rewritten with a new date; in C: one added.
            try FileManager.default.removeItem(atPath: root + "/A/IMG_2.jpg")
            try Support.write(Support.jpeg(width: 4, height: 3, date: "2020:01:01 00:00:00"), to: root + "/A/IMG_1.jpg")
            try Support.write(Support.jpeg(width: 5, height: 3, date: "2025:06:01 00:00:00"), to: root + "/A/IMG_10.jpg", mtime: 5)
            try Support.write(Support.jpeg(width: 4, height: 3, date: "2024:03:01 00:00:00"), to: root + "/C/w.jpg")
            let partial = try #require(library.rescanFolders(["A", "C"]))
            #expect(partial.changes.sorted() == LibraryChangeSet(added: ["A/IMG_1.jpg", "C/w.jpg"], removed: ["A/IMG_2.jpg"],
                                                                changed: ["A/IMG_10.jpg"]))
            let full = PhotoLibrary(root: root)
            full.rescan()
            #expect(shape(partial.snapshot) == shape(full.snapshot))
            #expect(library.photo(relativePath: "A/IMG_2.jpg") == nil)
            #expect(library.photo(relativePath: "C/w.jpg")?.header.storedWidth == 4)
            #expect(library.photo(relativePath: "A/IMG_10.jpg")?.header.storedWidth == 5)
        }
    }

    @Test func theRootFolderAndFoldersWithSymlinksAreLeftToAFullScan() throws {
        try Support.withTemporaryTree { tmp in
            let root = tmp + "/lib"
            try Support.write(Support.jpeg(width: 4, height: 3), to: root + "/top.jpg")
            try Support.write(Support.jpeg(width: 4, height: 3), to: root + "/A/a.jpg")
            try Support.symlink("a.jpg", at: root + "/A/link.jpg")
            let library = PhotoLibrary(root: root)
            library.rescan()
            #expect(library.rescanFolders([""]) == nil)
            #expect(library.rescanFolders(["A"]) == nil)
            #expect(library.rescanFolders(["Gone"]) == nil)
        }
    }
}
