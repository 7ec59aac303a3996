#if canImport(Glibc)
import Glibc
#endif
import PickerProtocol
import PickerSystem
import CSQLite

/// The persisted library index: one SQLite file per library root under `$XDG_CACHE_HOME/pickerd/`
/// (WAL, so a crash mid-write leaves the last committed state). It is a cache: deleting it costs
/// one full scan; a file that does not open or does not read is moved aside and made again.
/// A restart loads it, serves at once, and the first rescan only stats files and reads the
/// headers of the ones that changed. Used from the library watcher's thread only.
final class LibraryIndexStore {
    /// Bumped whenever the table's meaning changes: an index of another version is rebuilt.
    static let schemaVersion = "4"
    /// SQLite's files for one database: the main file, its write-ahead log and shared memory.
    private static let fileSuffixes = ["", "-wal", "-shm"]
    let path: String
    private var database: SQLiteDatabase?
    private let rootPath: String
    /// The index folder, held open and checked like the state folder (owner, 0700, no symlink).
    private let folder: StateDirectory?
    /// `index-HASH.sqlite`, the file's name inside `folder`.
    private let fileName: String
    /// The path SQLite opens: the folder's symlink-free path plus `fileName` (SQLite refuses symlinks on the way).
    private let openPath: String?
    /// The pixel cap rows are checked against as headers are (a row over it is dropped, its file read again).
    private let maxPixels: Int

    /// Opens (or creates) the index for the library whose real root path is `rootPath`.
    /// Never fails: without a usable file it logs why and the library simply scans.
    init(directory: String, rootPath: String, maxPixels: Int = EngineConfiguration.defaultMaxPixels) {
        self.rootPath = rootPath
        self.maxPixels = maxPixels
        let name = "index-" + Self.hex(Self.fnv1a(rootPath)) + ".sqlite"
        fileName = name
        path = directory + "/" + name
        do throws(StateDirectoryError) {
            let opened = try StateDirectory(path: directory, purpose: "index folder")
            folder = opened
            openPath = opened.resolvedPath().map { $0 + "/" + name }
        } catch {
            Log.error("library index: \(error); every start scans the whole library")
            folder = nil
            openPath = nil
            return
        }
        guard openPath != nil else {
            Log.error("library index: the index folder \(directory) has no symlink-free path; every start scans the whole library")
            return
        }
        setAsideFilesNotOurs()
        database = openOrRebuild()
    }

    /// The photos as last saved, by relative path (the folder and name are derived from the path);
    /// nil when there is no index yet or it cannot be read.
    func load() -> [Photo]? {
        guard let database else { return nil }
        do throws(SQLiteError) {
            let query = try database.prepare(
                "SELECT path, target, dev, ino, size, mtime_s, mtime_ns, format, width, height, orientation, exif_date, "
                    + "container, preview_w, preview_h FROM photos")
            var photos: [Photo] = []
            while try query.step() {
                if let photo = Self.photo(from: query, maxPixels: maxPixels) { photos.append(photo) }
            }
            return photos
        } catch {
            Log.error("library index \(path) does not read (\(error)); moved aside, the library is scanned")
            self.database = rebuild()
            return nil
        }
    }

    /// Writes what a scan changed, in one transaction: removed rows deleted, added and changed rows
    /// written from `photos` (the new index by relative path).
    func save(_ changes: LibraryChangeSet, photos: [String: Photo]) {
        guard let database, !changes.isEmpty else { return }
        do throws(SQLiteError) {
            let delete = try database.prepare("DELETE FROM photos WHERE path = ?1")
            let upsert = try database.prepare("""
                INSERT OR REPLACE INTO photos (path, target, dev, ino, size, mtime_s, mtime_ns, format, width, height,
                orientation, exif_date, container, preview_w, preview_h)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
                """)
            try database.transaction { () throws(SQLiteError) in
                for path in changes.removed {
                    delete.bind(1, path)
                    try delete.run()
                }
                for path in changes.added + changes.changed {
                    guard let photo = photos[path] else { continue }
                    // A photo listed too large has no size to keep: no row, so each start reads its header against the cap then.
                    if photo.tooLarge != nil {
                        delete.bind(1, path)
                        try delete.run()
                        continue
                    }
                    Self.bind(photo, to: upsert)
                    try upsert.run()
                }
            }
            // A big write (a first scan) leaves a write-ahead log as big as the table, which every start
            // would read through: fold it into the file now (1,000,000 photos: 134 MB of index → 67 MB).
            if changes.added.count + changes.changed.count + changes.removed.count > 10_000 {
                try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        } catch {
            Log.error("library index \(path): saving \(changes.added.count + changes.removed.count + changes.changed.count) change(s) failed (\(error)); the next start rescans more")
        }
    }

    /// The broken marks saved by earlier runs (see `BrokenPhotos`): rows whose `broken` is set.
    func loadBroken() -> [BrokenMark] {
        guard let database else { return [] }
        do throws(SQLiteError) {
            let query = try database.prepare(
                "SELECT path, dev, ino, size, mtime_s, mtime_ns, broken FROM photos WHERE broken IS NOT NULL")
            var marks: [BrokenMark] = []
            while try query.step() {
                guard let path = query.string(0), let reason = query.string(6) else { continue }
                let version = FileVersion(identity: FileIdentity(device: UInt64(bitPattern: query.int(1)),
                                                                 inode: UInt64(bitPattern: query.int(2))),
                                          size: query.int(3), mtimeSeconds: query.int(4), mtimeNanoseconds: query.int(5))
                marks.append(BrokenMark(path: path, version: version, reason: reason))
            }
            return marks
        } catch {
            Log.error("library index \(path): broken marks do not read (\(error)); those photos are tried again")
            return []
        }
    }

    /// Saves broken marks on the rows of their photos, in one transaction. A row whose file version
    /// is another (the file changed since) is left alone; a rescan that rewrites a row clears its mark.
    func saveBroken(_ marks: [BrokenMark]) {
        guard let database, !marks.isEmpty else { return }
        do throws(SQLiteError) {
            let update = try database.prepare(
                "UPDATE photos SET broken = ?1 WHERE path = ?2 AND dev = ?3 AND ino = ?4 AND size = ?5 AND mtime_s = ?6 AND mtime_ns = ?7")
            try database.transaction { () throws(SQLiteError) in
                for mark in marks {
                    update.bind(1, mark.reason)
                    update.bind(2, mark.path)
                    update.bind(3, Int64(bitPattern: mark.version.identity.device))
                    update.bind(4, Int64(bitPattern: mark.version.identity.inode))
                    update.bind(5, mark.version.size)
                    update.bind(6, mark.version.mtimeSeconds)
                    update.bind(7, mark.version.mtimeNanoseconds)
                    try update.run()
                }
            }
        } catch {
            Log.error("library index \(path): saving \(marks.count) broken mark(s) failed (\(error))")
        }
    }

    // MARK: - Opening

    private func openOrRebuild() -> SQLiteDatabase? {
        do throws(SQLiteError) {
            return try open()
        } catch {
            Log.error("library index \(path) is unusable (\(error)); moved aside and made again")
            return rebuild()
        }
    }

    private func rebuild() -> SQLiteDatabase? {
        database = nil
        moveAside()
        do throws(SQLiteError) {
            return try open()
        } catch {
            Log.error("library index \(path) cannot be made (\(error)); every start scans the whole library")
            return nil
        }
    }

    /// An index file planted by someone else (another uid's file, a symlink, a FIFO) is never opened:
    /// the whole set is moved aside and the index made again.
    private func setAsideFilesNotOurs() {
        guard let folder else { return }
        for suffix in Self.fileSuffixes {
            guard case .refused(let why) = folder.checkPrivateFile(fileName + suffix) else { continue }
            Log.error("library index \(path + suffix) is refused (\(why)); moved aside and made again")
            moveAside()
            return
        }
    }

    /// Renames the database's files to `.bad-N` names inside the folder (a symlink is moved, not followed).
    private func moveAside() {
        guard let folder else { return }
        let aside = fileName + ".bad-\(Int(monotonicNow()))"
        for suffix in Self.fileSuffixes where folder.checkPrivateFile(fileName + suffix) != .missing {
            do throws(SystemError) {
                try folder.rename(fileName + suffix, to: aside + suffix)
            } catch {
                folder.remove(fileName + suffix)
            }
        }
    }

    /// Opens the file, sets WAL, checks it is readable and of this schema and root (else starts it empty).
    private func open() throws(SQLiteError) -> SQLiteDatabase {
        guard let openPath else { throw SQLiteError(code: SQLITE_CANTOPEN, message: "no usable index folder") }
        let db = try SQLiteDatabase(path: openPath)
        try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
        try db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        let read = try db.prepare("SELECT value FROM meta WHERE key = ?1")
        read.bind(1, "schema")
        let schema = try read.step() ? read.string(0) : nil
        read.reset()
        read.bind(1, "root")
        let root = try read.step() ? read.string(0) : nil
        read.reset()
        if schema != Self.schemaVersion || root != rootPath {
            try db.execute("DROP TABLE IF EXISTS photos")
        }
        try db.execute("""
            CREATE TABLE IF NOT EXISTS photos (path TEXT PRIMARY KEY, target TEXT, dev INTEGER NOT NULL,
            ino INTEGER NOT NULL, size INTEGER NOT NULL, mtime_s INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
            format INTEGER NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL, orientation INTEGER NOT NULL,
            exif_date INTEGER, broken TEXT, container TEXT, preview_w INTEGER, preview_h INTEGER) WITHOUT ROWID
            """)
        let write = try db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")
        for (key, value) in [("schema", Self.schemaVersion), ("root", rootPath)] {
            write.bind(1, key)
            write.bind(2, value)
            try write.run()
        }
        return db
    }

    // MARK: - Rows

    private static func bind(_ p: Photo, to statement: SQLiteStatement) {
        statement.bind(1, p.relativePath)
        statement.bind(2, p.targetPath)
        statement.bind(3, Int64(bitPattern: p.device))
        statement.bind(4, Int64(bitPattern: p.inode))
        statement.bind(5, p.byteSize)
        statement.bind(6, p.mtimeSeconds)
        statement.bind(7, p.mtimeNanoseconds)
        statement.bind(8, Int64(p.header.format.rawValue))
        statement.bind(9, Int64(p.header.storedWidth))
        statement.bind(10, Int64(p.header.storedHeight))
        statement.bind(11, Int64(p.header.orientation.rawValue))
        if p.dateIsFromExif { statement.bind(12, p.dateSeconds) } else { statement.bind(12, nil as String?) }
        statement.bind(13, p.header.container)
        if let w = p.header.previewWidth, let h = p.header.previewHeight {
            statement.bind(14, Int64(w))
            statement.bind(15, Int64(h))
        } else {
            statement.bind(14, nil as String?)
            statement.bind(15, nil as String?)
        }
    }

    /// A row back as a photo; nil for a row that cannot be one (its file is then read again by the scan).
    private static func photo(from row: SQLiteStatement, maxPixels: Int) -> Photo? {
        guard let path = row.string(0), !path.isEmpty,
              case let format = PhotoFormat(rawValue: UInt8(truncatingIfNeeded: row.int(7))),
              ImageCodecs.codec(for: format) != nil,
              let orientation = Orientation(rawValue: Int(row.int(10))) else { return nil }
        var header = ImageHeader(format: format, storedWidth: Int(row.int(8)), storedHeight: Int(row.int(9)),
                                 orientation: orientation)
        header.container = row.string(12)
        if !row.isNull(13), !row.isNull(14) {
            header.previewWidth = Int(row.int(13))
            header.previewHeight = Int(row.int(14))
        }
        // Validated as a header just read is: a doctored size (or one over a cap lowered since) is
        // dropped and the file read again.
        guard ImageHeaderReader.oversizeReason(header, maxPixels: maxPixels) == nil else { return nil }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return Photo(albumName: folder, fileName: name, relativePath: path, header: header, byteSize: row.int(4),
                     mtimeSeconds: row.int(5), mtimeNanoseconds: row.int(6),
                     device: UInt64(bitPattern: row.int(2)), inode: UInt64(bitPattern: row.int(3)),
                     targetPath: row.string(1), exifDateSeconds: row.isNull(11) ? nil : row.int(11))
    }

    // MARK: - Naming

    /// FNV-1a 64: a stable short name for the root path (not security: the file is in our own folder).
    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    private static func hex(_ v: UInt64) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
