import Foundation
@testable import PickerEngine
import PickerSystem
import Testing

/// `LibraryRootTracker`: tells a folder moved away, deleted or replaced at the library path from the
/// one that was scanned, on real folders (rename, remove, make again).
@Suite struct LibraryRootTrackerTests {
    let base: URL
    var path: String { base.appendingPathComponent("lib").path }

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("pkroot-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: base.appendingPathComponent("lib"), withIntermediateDirectories: true)
    }

    /// A tracker that has just scanned the folder now at `path`, and that folder's descriptor, held
    /// as the served snapshot holds it (while it is open, a folder made anew cannot get its inode).
    private func trackerAfterScan() throws -> (LibraryRootTracker, RootDirectory) {
        var tracker = LibraryRootTracker(path: path)
        var snapshot = LibrarySnapshot.empty(root: path)
        let root = try RootDirectory(path: path)
        snapshot.rootDirectory = root
        tracker.scanned(snapshot, before: tracker.identityNow, now: 0)
        return (tracker, root)
    }

    @Test func theScannedFolderStillThereIsNoChange() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        var (tracker, served) = try trackerAfterScan()
        defer { withExtendedLifetime(served) {} }
        #expect(tracker.rootChanged(now: LibraryRootTracker.intervalSeconds) == nil)
    }

    @Test func aFolderMovedAwayIsGoneThoughItsDescriptorStillReadsIt() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        var (tracker, served) = try trackerAfterScan()
        defer { withExtendedLifetime(served) {} }
        try FileManager.default.moveItem(atPath: path, toPath: path + ".moved")
        #expect(try FileSystem.status(served.descriptor).isDirectory, "the descriptor still reads the moved folder")
        #expect(tracker.rootChanged(now: LibraryRootTracker.intervalSeconds) == .gone)
    }

    @Test func aFolderDeletedAndMadeAgainIsReplaced() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        var (tracker, served) = try trackerAfterScan()
        defer { withExtendedLifetime(served) {} }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(tracker.rootChanged(now: LibraryRootTracker.intervalSeconds) == .replaced)
    }

    @Test func aFolderAppearingWhereNothingWasScannedIsReplaced() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.removeItem(atPath: path)
        var tracker = LibraryRootTracker(path: path)
        tracker.scanned(LibrarySnapshot.empty(root: path), before: tracker.identityNow, now: 0)
        #expect(tracker.rootChanged(now: LibraryRootTracker.intervalSeconds) == nil, "still nothing there")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(tracker.rootChanged(now: 2 * LibraryRootTracker.intervalSeconds) == .replaced)
    }

    /// A file at the path cannot be opened as the library: it is not retried every second.
    @Test func aFileAtThePathIsLookedAtOnceNotEverySecond() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.removeItem(atPath: path)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        var tracker = LibraryRootTracker(path: path)
        tracker.scanned(LibrarySnapshot.empty(root: path), before: tracker.identityNow, now: 0)
        #expect(tracker.rootChanged(now: LibraryRootTracker.intervalSeconds) == nil)
    }

    @Test func thePathIsNotLookedAtBeforeTheIntervalUnlessAsked() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        var (tracker, served) = try trackerAfterScan()
        defer { withExtendedLifetime(served) {} }
        try FileManager.default.removeItem(atPath: path)
        #expect(tracker.rootChanged(now: LibraryRootTracker.intervalSeconds / 2) == nil)
        tracker.checkSoon()
        #expect(tracker.rootChanged(now: LibraryRootTracker.intervalSeconds / 2) == .gone)
    }
}
