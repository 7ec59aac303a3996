import Foundation
import Testing
@testable import PickerEngine
import PickerProtocol

@Suite("LibraryPath and PhotoLibrary")
struct LibraryPathTests {
    typealias Support = LibraryTestSupport

    @Test(arguments: ["..", "/etc/passwd", "a\0b", "a/../../x", "", "../x", "a/..", "/", "2024/../../etc"])
    func unsafeNamesAreRefused(_ name: String) {
        #expect {
            try LibraryPath.validatedName(name, what: "album")
        } throws: { error in
            (error as? PickerError)?.code == .invalidName
        }
    }

    @Test func namesAreNormalised() throws {
        #expect(try LibraryPath.validatedName("2024//Kyoto/") == "2024/Kyoto")
        #expect(try LibraryPath.validatedName("./2024/./Kyoto") == "2024/Kyoto")
        #expect(try LibraryPath.validatedName("..hidden-ish.jpg") == "..hidden-ish.jpg")
        #expect(try LibraryPath.validatedName("All Photos") == "All Photos")
    }

    @Test func lookupsByNameAndIndex() throws {
        try Support.withTemporaryTree { tmp in
            let root = tmp + "/Pictures"
            try Support.write(Support.png(width: 1, height: 1), to: root + "/2024/Kyoto/IMG_2.png", mtime: 200)
            try Support.write(Support.png(width: 1, height: 1), to: root + "/2024/Kyoto/IMG_10.png", mtime: 100)
            try Support.write(Support.png(width: 1, height: 1), to: root + "/Osaka/IMG_2.png", mtime: 300)
            let library = PhotoLibrary(root: root)
            #expect(library.snapshot.photoCount == 0)
            library.rescan()
            #expect(library.albums.map(\.name) == ["All Photos", "2024/Kyoto", "Osaka"])
            #expect(try library.album(atIndex: 1).name == "All Photos")
            #expect(try library.album(atIndex: 2).name == "2024/Kyoto")
            #expect(try library.album(named: "2024/kyoto/").name == "2024/Kyoto")  // case and trailing slash
            #expect(try library.photo(atIndex: 2, inAlbum: "2024/Kyoto").fileName == "IMG_10.png")
            #expect(try library.photo(named: "IMG_10.png", inAlbum: "2024/Kyoto").relativePath == "2024/Kyoto/IMG_10.png")
            // In All Photos a file name may be ambiguous; the relative path is not.
            #expect(try library.photo(named: "Osaka/IMG_2.png", inAlbum: "All Photos").albumName == "Osaka")
            #expect(try library.photo(named: "IMG_10.png", inAlbum: "All Photos").albumName == "2024/Kyoto")
            #expect { try library.photo(named: "IMG_2.png", inAlbum: "All Photos") } throws: { error in
                (error as? PickerError)?.code == .invalidArgument
            }
            #expect { try library.album(named: "Tokyo") } throws: { error in
                guard let e = error as? PickerError else { return false }
                return e.code == .noSuchAlbum && e.message.contains("'Tokyo'") && e.message.contains("3 albums")
            }
            #expect { try library.album(atIndex: 0) } throws: { ($0 as? PickerError)?.code == .noSuchAlbum }
            #expect { try library.album(atIndex: 4) } throws: { ($0 as? PickerError)?.code == .noSuchAlbum }
            #expect { try library.photo(atIndex: 3, inAlbum: "Osaka") } throws: { error in
                guard let e = error as? PickerError else { return false }
                return e.code == .noSuchPhoto && e.message.contains("1 photo")
            }
            #expect { try library.photo(named: "nope.png", inAlbum: "Osaka") } throws: { error in
                guard let e = error as? PickerError else { return false }
                return e.code == .noSuchPhoto && e.message.contains("'nope.png'") && e.message.contains("'Osaka'")
            }
            #expect { try library.album(named: "../etc") } throws: { ($0 as? PickerError)?.code == .invalidName }
            #expect { try library.photo(named: "../../etc/passwd", inAlbum: "Osaka") } throws: {
                ($0 as? PickerError)?.code == .invalidName
            }
            let kyoto = try library.album(named: "2024/Kyoto")
            #expect(kyoto.index(ofPhotoAt: "2024/Kyoto/IMG_10.png") == 2)
        }
    }

    @Test func readPhotoBytesReturnsTheFileAndRechecksTheRoot() throws {
        try Support.withTemporaryTree { tmp in
            let root = tmp + "/lib"
            let bytes = Support.jpeg(width: 9, height: 9) + [UInt8](repeating: 7, count: 200_000)
            try Support.write(bytes, to: root + "/A/p.jpg")
            try Support.write(Array("secret".utf8), to: tmp + "/secret.jpg")
            let library = PhotoLibrary(root: root)
            library.rescan()
            let photo = try library.photo(named: "p.jpg", inAlbum: "A")
            #expect(try library.readPhotoBytes(photo) == bytes)

            // The file is swapped for a symlink leading outside after the scan: refused.
            try FileManager.default.removeItem(atPath: root + "/A/p.jpg")
            try Support.symlink(tmp + "/secret.jpg", at: root + "/A/p.jpg")
            #expect { try library.readPhotoBytes(photo) } throws: { error in
                guard let e = error as? PickerError else { return false }
                return e.code == .invalidName && e.message.contains("A/p.jpg")
            }
            // Gone: no such photo.
            try FileManager.default.removeItem(atPath: root + "/A/p.jpg")
            #expect { try library.readPhotoBytes(photo) } throws: { ($0 as? PickerError)?.code == .noSuchPhoto }

            // A forged photo value cannot escape either.
            let forged = Photo(albumName: photo.albumName, fileName: "secret.jpg", relativePath: "../secret.jpg",
                               header: photo.header, byteSize: photo.byteSize, mtimeSeconds: photo.mtimeSeconds)
            #expect { try library.readPhotoBytes(forged) } throws: { ($0 as? PickerError)?.code == .invalidName }
        }
    }

    @Test func readPhotoBytesRefusesFilesOverTheCap() throws {
        try Support.withTemporaryTree { root in
            try Support.write(Support.jpeg(width: 9, height: 9) + [UInt8](repeating: 0, count: 5000), to: root + "/big.jpg")
            let library = PhotoLibrary(root: root, maxPhotoBytes: 1000)
            library.rescan()
            let photo = try #require(library.snapshot.allPhotos.first)
            #expect { try library.readPhotoBytes(photo) } throws: { ($0 as? PickerError)?.code == .imageTooLarge }
        }
    }

    @Test func rescanPicksUpChangesAndReportsAMissingRoot() throws {
        try Support.withTemporaryTree { root in
            let library = PhotoLibrary(root: root)
            library.rescan()
            #expect(library.snapshot.photoCount == 0)
            try Support.write(Support.png(width: 1, height: 1), to: root + "/new.png")
            library.rescan()
            #expect(library.snapshot.photoCount == 1)
            #expect(library.progress.current.state == .ready)
        }
        let missing = PhotoLibrary(root: "/nonexistent/pickerd")
        let snapshot = missing.rescan().snapshot
        #expect(snapshot.scanError?.code == .ioError)
        #expect(snapshot.scanError?.message.contains("/nonexistent/pickerd") == true)
        #expect(missing.snapshot.albums.map(\.name) == ["All Photos"])
        #expect(missing.snapshot.hasBeenScanned)
    }
}
