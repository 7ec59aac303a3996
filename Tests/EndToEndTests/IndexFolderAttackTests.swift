import Foundation
import Testing

private let canPlantAsAnotherUser = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

/// The library index folder (`$XDG_CACHE_HOME/pickerd`) against another local user (uid 65534, planting
/// with `setpriv`) who could write it: the folder gets the state folder's rules and SQLite follows no
/// symlink. The victim is this test's root-run daemon.
@Suite(.timeLimit(.minutes(15)), .enabled(if: canPlantAsAnotherUser, "needs root and /usr/bin/setpriv to plant files as uid 65534"))
struct IndexFolderAttackTests {

    let library: TemporaryLibrary
    /// A private `$XDG_CACHE_HOME` made by the test, so things can be planted before the daemon starts.
    let cacheHome: URL
    /// The folder where the attacker keeps what it planted (its own, uid 65534).
    let attackerHome: URL
    /// Holds both; each test removes it.
    let base: URL
    let photo = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")

    init() throws {
        library = try TemporaryLibrary()
        try library.add(photo, album: "A", as: "victims-photo.jpg")
        base = URL(fileURLWithPath: "/tmp/pkidx-\(UUID().uuidString.prefix(8))")
        cacheHome = base.appendingPathComponent("cache")
        attackerHome = base.appendingPathComponent("attacker")
        try FileManager.default.createDirectory(at: cacheHome, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: attackerHome, withIntermediateDirectories: true)
        chmod(base.path, 0o755)
        chown(attackerHome.path, 65534, 65534)
    }

    private var indexFolder: URL { cacheHome.appendingPathComponent("pickerd") }

    /// `index-<FNV-1a 64 of the library's real path>.sqlite`: the predictable name an attacker aims at.
    private func indexName() throws -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in try realPath(library.url.path).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(hash, radix: 16)
        return "index-" + String(repeating: "0", count: 16 - digits.count) + digits + ".sqlite"
    }

    private func realPath(_ path: String) throws -> String {
        guard let p = realpath(path, nil) else { throw CocoaError(.fileNoSuchFile) }
        defer { free(p) }
        return String(cString: p)
    }

    /// Runs `args` as uid/gid 65534 with no supplementary groups.
    @discardableResult
    private func asAttacker(_ args: String...) throws -> CommandResult {
        let r = try runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups"] + args)
        #expect(r.exitCode == 0, "as uid 65534: \(args): \(r)")
        return r
    }

    private func startDaemon() throws -> LiveDaemon {
        try LiveDaemon(library: library.url, extraEnvironment: ["XDG_CACHE_HOME": cacheHome.path])
    }

    private func sqlite(_ path: String, _ sql: String) throws -> String {
        try runProcess("/usr/bin/sqlite3", [path, sql]).stdoutText
    }

    /// The victim's own index folder was left open (0777); the attacker plants a symlink at the index's
    /// name pointing at another SQLite database of the victim's. Without the fix SQLite followed it and
    /// wrote the index tables into that database.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func aSymlinkPlantedAtTheIndexNameIsNotFollowed() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: indexFolder, withIntermediateDirectories: true)
        chmod(indexFolder.path, 0o777)
        let precious = cacheHome.appendingPathComponent("precious.sqlite").path
        _ = try sqlite(precious, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me');")
        let before = try Data(contentsOf: URL(fileURLWithPath: precious))
        let planted = indexFolder.appendingPathComponent(try indexName()).path
        try asAttacker("/bin/ln", "-s", precious, planted)

        let daemon = try startDaemon()
        defer { _ = daemon.stop() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: precious)) == before, "the victim's database is untouched")
        #expect(try sqlite(precious, ".tables").trimmingCharacters(in: .whitespacesAndNewlines) == "notes")
        #expect(daemon.log.contains("refused (it is a symlink)"), "\(daemon.log)")
        #expect(daemon.log.contains("index folder \(indexFolder.path) had mode 0777"), "\(daemon.log)")
        var st = stat()
        #expect(lstat(planted, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_uid == 0,
                "a fresh index of ours is at the name")
        #expect(stat(indexFolder.path, &st) == 0 && st.st_mode & 0o777 == 0o700)
    }

    /// The attacker plants a world-writable index of its own (a hard link it keeps) in the open folder.
    /// Without the fix the daemon loaded it and filled it with the victim's photo list.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func aWorldWritableIndexPlantedByAnotherUserIsNeitherLoadedNorFilled() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: indexFolder, withIntermediateDirectories: true)
        chmod(indexFolder.path, 0o777)
        let kept = attackerHome.appendingPathComponent("kept.sqlite").path
        try asAttacker("/usr/bin/sqlite3", kept, "CREATE TABLE bait (x); INSERT INTO bait VALUES (1);")
        try asAttacker("/bin/chmod", "0666", kept)
        let planted = indexFolder.appendingPathComponent(try indexName()).path
        try asAttacker("/bin/ln", kept, planted)

        let daemon = try startDaemon()
        defer { _ = daemon.stop() }
        #expect(try daemon.ctl("session", "new", "i", "--width", "100").exitCode == 0)
        #expect(try daemon.ctl("select-album", "A", session: "i").exitCode == 0)
        #expect(try daemon.ctl("photos", session: "i").stdoutText.contains("victims-photo.jpg"))
        #expect(daemon.log.contains("owned by uid 65534, not by this user"), "\(daemon.log)")
        // What the attacker can read afterwards: its own file, and whatever is at the names it planted.
        let reads = try runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/cat",
                                                         kept, planted, planted + "-wal"])
        #expect(!reads.stdoutText.contains("victims-photo"), "the attacker reads the victim's photo list")
        #expect(try sqlite(kept, ".tables").trimmingCharacters(in: .whitespacesAndNewlines) == "bait",
                "the planted database was not made an index")
    }

    /// The attacker made the index folder itself before the victim's first start: refused, left alone.
    @Test func anIndexFolderOwnedByAnotherUserIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        chmod(cacheHome.path, 0o1777)  // a shared cache parent, like /tmp: anyone may make a folder there
        try asAttacker("/bin/mkdir", "-m", "0777", indexFolder.path)
        let daemon = try startDaemon()
        defer { _ = daemon.stop() }
        #expect(daemon.log.contains("the index folder \(indexFolder.path) is owned by uid 65534"), "\(daemon.log)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: indexFolder.path).isEmpty,
                "nothing of the victim's is written into the attacker's folder")
        #expect(try daemon.ctl("ping").exitCode == 0)
    }
}
