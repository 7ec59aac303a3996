#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import PickerProtocol

/// Walks a library folder and builds a `LibrarySnapshot`.
///
/// - The walk uses opendir/readdir/fstatat/realpath directly (FileManager is slow on Linux).
/// - Hidden files and folders (name starting with ".") are skipped; so is anything that is
///   not a regular file or folder (FIFOs, sockets, devices are never opened).
/// - Symlinks, to files or folders, are followed only when their real path stays inside the
///   root's real path. Real folders are walked before symlinked ones, so when a symlink and a
///   folder lead to the same place the folder's own path names the album. Each folder is
///   walked once (a visited set of device and inode), which also ends symlink loops.
/// - Formats come from the bytes: a PNG named ".txt" is indexed, a text file named ".jpg" is not.
/// - Headers are read in parallel; files whose header cannot be read are left out and listed
///   in `LibrarySnapshot.skipped` with the reason.
/// - Album naming: a folder that directly holds images is an album named by its path relative
///   to the root ("2024/Kyoto"). Photos lying directly in the root form an album named after the
///   root folder itself (e.g. "Pictures"), which is what the user sees in a file manager; if
///   that collides with another album's name it becomes "Pictures (top level)".
public struct LibraryScanner: Sendable {
    /// The library root as configured.
    public var root: String
    /// Folders nested deeper than this below the root are not walked.
    public var maxDepth: Int

    public init(root: String, maxDepth: Int = 64) {
        self.root = root
        self.maxDepth = maxDepth
    }

    /// Scans the library.
    /// - Returns: the new snapshot.
    /// - Throws: `.ioError` when the root does not exist, is not a folder or cannot be resolved.
    public func scan() throws(PickerError) -> LibrarySnapshot {
        let clock = ContinuousClock()
        let started = clock.now

        let rootReal: String
        switch LibrarySys.realPath(root) {
        case .success(let real): rootReal = real
        case .failure(let e): throw PickerError(.ioError, "cannot open the library folder '\(root)': \(e.description)")
        }
        let rootStatus: stat
        switch LibrarySys.status(path: rootReal) {
        case .success(let st): rootStatus = st
        case .failure(let e): throw PickerError(.ioError, "cannot open the library folder '\(root)': \(e.description)")
        }
        guard LibrarySys.isDirectory(rootStatus) else {
            throw PickerError(.ioError, "the library '\(root)' is not a folder")
        }

        var walker = TreeWalker(rootReal: rootReal, maxDepth: maxDepth)
        walker.visited.insert(FileKey(rootStatus))
        walker.walk(directory: rootReal, relative: "", depth: 0)
        while !walker.deferred.isEmpty {
            let next = walker.deferred.removeFirst()
            guard walker.visited.insert(next.key).inserted else { continue }
            walker.walk(directory: next.realPath, relative: next.relative, depth: next.depth)
        }

        let files = walker.files
        let outcomes = Self.readHeaders(files)

        var skipped = walker.skipped
        var byFolder: [String: [Photo]] = [:]
        for (file, outcome) in zip(files, outcomes) {
            switch outcome {
            case .header(let header):
                let photo = Photo(albumName: file.folder, fileName: file.name, relativePath: file.relative,
                                  header: header, byteSize: Int64(file.status.st_size),
                                  mtimeSeconds: Int64(file.status.st_mtim.tv_sec),
                                  mtimeNanoseconds: Int64(file.status.st_mtim.tv_nsec),
                                  device: UInt64(file.status.st_dev), inode: UInt64(file.status.st_ino))
                byFolder[file.folder, default: []].append(photo)
            case .skipped(let reason, let message):
                skipped.append(SkippedEntry(relativePath: file.relative, reason: reason, message: message))
            }
        }

        let rootName = Self.rootAlbumName(root: root, rootReal: rootReal, folders: Set(byFolder.keys))
        let folderOrder = Self.sortedFolders(Array(byFolder.keys))
        var albums: [Album] = []
        var everything: [Photo] = []
        for folder in folderOrder {
            let name = folder.isEmpty ? rootName : folder
            var photos = NaturalSort.sorted(byFolder[folder] ?? []) { $0.fileName }
            for i in photos.indices { photos[i].albumName = name }
            everything.append(contentsOf: photos)
            albums.append(Album(name: name, kind: .folder(relativePath: folder), photos: photos))
        }
        let all = Album(name: LibrarySnapshot.allPhotosName, kind: .allPhotos,
                        photos: Album.sortedNewestFirst(everything))
        skipped.sort { $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8) }

        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return LibrarySnapshot(root: root, rootRealPath: rootReal, albums: [all] + albums, skipped: skipped,
                               scannedAtSeconds: Int64(now.tv_sec), scanDurationSeconds: seconds)
    }

    // MARK: - Naming and order

    /// The root album's name: the root folder's base name ("/" for the filesystem root),
    /// made distinct from folder albums and "All Photos".
    static func rootAlbumName(root: String, rootReal: String, folders: Set<String>) -> String {
        var trimmed = Substring(root)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        var base = trimmed.split(separator: "/").last.map(String.init) ?? ""
        if base.isEmpty || base == "." || base == ".." {
            base = rootReal.split(separator: "/").last.map(String.init) ?? "/"
        }
        if folders.contains(base) || base == LibrarySnapshot.allPhotosName {
            return base + " (top level)"
        }
        return base
    }

    /// Folder paths with the root ("") first, then in natural order segment by segment,
    /// so "2024" < "2024/Kyoto" < "2024 trip".
    static func sortedFolders(_ folders: [String]) -> [String] {
        let keyed = folders.map { folder in
            (folder, folder.split(separator: "/").map { NaturalSort.Key(String($0)) })
        }
        return keyed.sorted { a, b in
            for (x, y) in zip(a.1, b.1) {
                let c = NaturalSort.compare(x, y)
                if c != 0 { return c < 0 }
            }
            return a.1.count < b.1.count
        }.map(\.0)
    }

    // MARK: - Headers in parallel

    enum Outcome: Sendable {
        case header(ImageHeader)
        case skipped(SkippedEntry.Reason, String)
    }

    static func readHeaders(_ files: [FoundFile]) -> [Outcome] {
        guard !files.isEmpty else { return [] }
        var outcomes = [Outcome](repeating: .skipped(.unreadable, "not read"), count: files.count)
        outcomes.withUnsafeMutableBufferPointer { buffer in
            let slots = SendableSlots(buffer)
            files.withUnsafeBufferPointer { input in
                let found = SendableInput(input)
                DispatchQueue.concurrentPerform(iterations: files.count) { i in
                    slots.buffer[i] = readHeader(found.buffer[i])
                }
            }
        }
        return outcomes
    }

    static func readHeader(_ file: FoundFile) -> Outcome {
        let fd: Int32
        switch LibrarySys.openReadOnly(file.openPath) {
        case .success(let opened): fd = opened
        case .failure(let e): return .skipped(.unreadable, "cannot open '\(file.relative)': \(e.description)")
        }
        defer { LibrarySys.closeQuietly(fd) }
        do throws(PickerError) {
            return .header(try ImageHeaderReader.read(fd: fd, fileSize: Int(file.status.st_size), name: file.relative))
        } catch {
            switch error.code {
            case .unsupportedImage: return .skipped(.notAnImage, error.message)
            case .corruptImage: return .skipped(.damagedHeader, error.message)
            default: return .skipped(.unreadable, error.message)
            }
        }
    }
}

/// Disjoint slots written by `concurrentPerform`: each iteration writes only its own index.
private struct SendableSlots: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<LibraryScanner.Outcome>
    init(_ buffer: UnsafeMutableBufferPointer<LibraryScanner.Outcome>) { self.buffer = buffer }
}

/// Read-only input shared by the `concurrentPerform` iterations.
private struct SendableInput: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<FoundFile>
    init(_ buffer: UnsafeBufferPointer<FoundFile>) { self.buffer = buffer }
}

/// A regular file found by the walk, with its status (the target's, for a symlink).
struct FoundFile: @unchecked Sendable {
    /// Folder path relative to the root ("" for the root).
    var folder: String
    var name: String
    /// Path relative to the root, as walked.
    var relative: String
    /// Path to open: the walked path, or the resolved target of a symlink.
    var openPath: String
    var status: stat
}

/// Identity of a file or folder.
struct FileKey: Hashable {
    var device: UInt64
    var inode: UInt64
    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}

/// The directory walk (single-threaded; header reading is the parallel part).
struct TreeWalker {
    let rootReal: String
    let maxDepth: Int
    var visited: Set<FileKey> = []
    var files: [FoundFile] = []
    var skipped: [SkippedEntry] = []
    /// Symlinked folders inside the root, walked after the real folders.
    var deferred: [(realPath: String, relative: String, depth: Int, key: FileKey)] = []

    init(rootReal: String, maxDepth: Int) {
        self.rootReal = rootReal
        self.maxDepth = maxDepth
    }

    private static let typeUnknown: UInt8 = 0
    private static let typeDirectory: UInt8 = 4
    private static let typeRegular: UInt8 = 8
    private static let typeSymlink: UInt8 = 10

    mutating func walk(directory: String, relative: String, depth: Int) {
        guard let dir = opendir(directory) else {
            let e = ErrnoCode(errno)
            skipped.append(SkippedEntry(relativePath: relative.isEmpty ? "." : relative, reason: .unreadable,
                                        message: "cannot list folder '\(relative.isEmpty ? "." : relative)': \(e.description)"))
            return
        }
        defer { closedir(dir) }
        let dirFD = dirfd(dir)

        var entries: [(name: String, type: UInt8)] = []
        while let entry = readdir(dir) {
            let type = entry.pointee.d_type
            let name = withUnsafePointer(to: entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(validatingCString: $0)
                }
            }
            guard let name else {
                skipped.append(SkippedEntry(relativePath: relative.isEmpty ? "?" : relative + "/?", reason: .unreadable,
                                            message: "a name in '\(relative.isEmpty ? "." : relative)' is not valid UTF-8"))
                continue
            }
            if name.hasPrefix(".") { continue }  // hidden, and "." / ".."
            entries.append((name, type))
        }
        entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }

        for (name, type) in entries {
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            let childPath = LibraryPath.join(directory, name)
            var isLink = type == Self.typeSymlink
            var st = stat()
            if !isLink {
                switch LibrarySys.status(at: dirFD, name: name, follow: false) {
                case .success(let found): st = found
                case .failure(let e):
                    skip(childRelative, .unreadable, "cannot stat '\(childRelative)': \(e.description)")
                    continue
                }
                isLink = LibrarySys.isSymlink(st)
            }
            if isLink {
                let target: String
                switch LibrarySys.realPath(childPath) {
                case .success(let real): target = real
                case .failure(let e):
                    skip(childRelative, e.isNotFound ? .brokenSymlink : .unreadable,
                         "cannot follow symlink '\(childRelative)': \(e.description)")
                    continue
                }
                guard LibraryPath.isInside(target, root: rootReal) else {
                    skip(childRelative, .outsideRoot, "symlink '\(childRelative)' leads outside the library")
                    continue
                }
                switch LibrarySys.status(path: target) {
                case .success(let found): st = found
                case .failure(let e):
                    skip(childRelative, .unreadable, "cannot stat '\(childRelative)': \(e.description)")
                    continue
                }
                if LibrarySys.isDirectory(st) {
                    if depth + 1 > maxDepth {
                        skip(childRelative, .tooDeep, "folder '\(childRelative)' is nested too deep")
                    } else {
                        deferred.append((target, childRelative, depth + 1, FileKey(st)))
                    }
                } else if LibrarySys.isRegular(st) {
                    files.append(FoundFile(folder: relative, name: name, relative: childRelative,
                                           openPath: target, status: st))
                }
                continue
            }
            if LibrarySys.isDirectory(st) {
                if depth + 1 > maxDepth {
                    skip(childRelative, .tooDeep, "folder '\(childRelative)' is nested too deep")
                } else if visited.insert(FileKey(st)).inserted {
                    walk(directory: childPath, relative: childRelative, depth: depth + 1)
                }
            } else if LibrarySys.isRegular(st) {
                files.append(FoundFile(folder: relative, name: name, relative: childRelative,
                                       openPath: childPath, status: st))
            }
        }
    }

    private mutating func skip(_ relative: String, _ reason: SkippedEntry.Reason, _ message: String) {
        skipped.append(SkippedEntry(relativePath: relative, reason: reason, message: message))
    }
}
