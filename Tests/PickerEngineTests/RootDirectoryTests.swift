import Foundation
import PickerEngine
import PickerProtocol
import PickerSystem
import Testing

private typealias Support = LibraryTestSupport

/// `RootDirectory`: files are opened beneath the root descriptor, so a parent folder swapped
/// for a symlink leading outside opens nothing there; symlinks that stay inside keep working.
@Suite struct RootDirectoryTests {
    /// A library `lib/A/p.jpg` and, beside it, `outside/A/p.jpg` with other bytes.
    private func makeTree(_ tmp: String) throws -> (root: String, inside: [UInt8], outside: [UInt8]) {
        let inside = Support.jpeg(width: 9, height: 9)
        let outside = Support.jpeg(width: 7, height: 5) + Array("outside".utf8)
        try Support.write(inside, to: tmp + "/lib/A/p.jpg")
        try Support.write(outside, to: tmp + "/outside/A/p.jpg")
        return (tmp + "/lib", inside, outside)
    }

    private func read(_ root: RootDirectory, _ path: String) throws -> [UInt8] {
        let (fd, status) = try root.openFile(path)
        defer { FileSystem.close(fd) }
        return try FileSystem.read(fd, at: 0, count: Int(status.size))
    }

    private func errno(of body: () throws -> Void) -> Int32? {
        do {
            try body()
            return nil
        } catch let error as SystemError {
            return error.errno.rawValue
        } catch {
            return -1
        }
    }

    @Test func aParentFolderSwappedForAnOutsideSymlinkOpensNothing() throws {
        try Support.withTemporaryTree { tmp in
            let (rootPath, inside, _) = try makeTree(tmp)
            let root = try RootDirectory(path: rootPath)
            #expect(try read(root, "A/p.jpg") == inside)
            // The album folder becomes a symlink to the outside folder holding a same-named file.
            try FileManager.default.moveItem(atPath: rootPath + "/A", toPath: tmp + "/A.moved")
            try Support.symlink(tmp + "/outside/A", at: rootPath + "/A")
            #expect(errno { _ = try read(root, "A/p.jpg") } == EXDEV)
            // The fallback for old kernels refuses the symlinked folder (O_NOFOLLOW|O_DIRECTORY: ENOTDIR).
            let fallback = errno { _ = try FileSystem.openBeneathByComponents(root.descriptor, "A/p.jpg", flags: FileSystem.readFlags) }
            #expect(fallback == ENOTDIR || fallback == ELOOP)
        }
    }

    @Test func relativeSymlinksThatStayInsideAreFollowed() throws {
        try Support.withTemporaryTree { tmp in
            let (rootPath, inside, _) = try makeTree(tmp)
            try Support.symlink("A", at: rootPath + "/Linked")
            try Support.makeFolder(rootPath + "/B")
            try Support.symlink("../A/p.jpg", at: rootPath + "/B/q.jpg")
            let root = try RootDirectory(path: rootPath)
            #expect(try read(root, "Linked/p.jpg") == inside)
            #expect(try read(root, "B/q.jpg") == inside)
            #expect(errno { _ = try read(root, "../outside/A/p.jpg") } == EXDEV)
            #expect(errno { _ = try read(root, "A") } == EISDIR)
        }
    }

    @Test func kernelOpenat2IsUsedHere() {
        // Linux 5.6+: the fallback (no symlinks at all) is only for older kernels. If this fails
        // the machine's kernel or sandbox filters openat2, and symlinked albums will be refused.
        #expect(FileSystem.kernelHasOpenat2)
    }

    @Test func relativePathIsBySegment() throws {
        try Support.withTemporaryTree { tmp in
            try Support.makeFolder(tmp + "/lib")
            let root = try RootDirectory(path: tmp + "/lib")
            #expect(root.relativePath(of: root.path + "/x.jpg") == "x.jpg")
            #expect(root.relativePath(of: root.path) == "")
            #expect(root.relativePath(of: root.path + "rary/x.jpg") == nil)
            #expect(root.relativePath(of: "/etc/passwd") == nil)
        }
    }

    @Test func readingAPhotoWhoseAlbumWasSwappedOutIsRefused() throws {
        try Support.withTemporaryTree { tmp in
            let (rootPath, inside, _) = try makeTree(tmp)
            let library = PhotoLibrary(root: rootPath)
            library.rescan()
            let photo = try library.photo(named: "p.jpg", inAlbum: "A")
            #expect(try library.readPhotoBytes(photo) == inside)
            try FileManager.default.moveItem(atPath: rootPath + "/A", toPath: tmp + "/A.moved")
            try Support.symlink(tmp + "/outside/A", at: rootPath + "/A")
            #expect { try library.readPhotoBytes(photo) } throws: { ($0 as? PickerError)?.code == .invalidName }
            // And a rescan lists nothing from there.
            library.rescan()
            #expect(library.snapshot.photoCount == 0)
            #expect(library.snapshot.skipped.contains { $0.relativePath == "A" && $0.reason == .outsideRoot })
        }
    }
}
