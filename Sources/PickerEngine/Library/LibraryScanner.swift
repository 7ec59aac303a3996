#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PickerProtocol
import PickerSystem

/// Walks a library folder and builds a `LibrarySnapshot`.
///
/// - The walk goes by descriptors: each folder is opened relative to its parent with `O_NOFOLLOW`
///   and listed through that descriptor; files are opened beneath the root descriptor
///   (`RootDirectory`), so a folder swapped for a symlink mid-scan lists and reads nothing outside.
/// - Hidden files and folders (name starting with ".") are skipped; so is anything that is
///   not a regular file or folder (FIFOs, sockets, devices are never opened).
/// - Symlinks, to files or folders, are followed only when their real path stays inside the
///   root's real path. Real folders are walked before symlinked ones, so when a symlink and a
///   folder lead to the same place the folder's own path names the album. Each folder is
///   walked once (a visited set of device and inode), which also ends symlink loops.
/// - Formats come from the bytes: a PNG named ".txt" is indexed, a text file named ".jpg" is not.
/// - Headers are read in parallel; files whose header cannot be read are left out and listed
///   in `LibrarySnapshot.skipped` with the reason. A header declaring more pixels than `maxPixels`
///   is listed without a size, marked too large (`Photo.tooLarge`): broken, never decoded.
/// - Album naming: a folder that directly holds images is an album named by its path relative
///   to the root ("2024/Kyoto"). Photos lying directly in the root form an album named after the
///   root folder itself (e.g. "Pictures"), which is what the user sees in a file manager; if
///   that collides with another album's name it becomes "Pictures (top level)".
public struct LibraryScanner: Sendable {
    /// The library root as configured.
    public var root: String
    /// Folders nested deeper than this below the root are not walked.
    public var maxDepth: Int
    /// Headers are read on the calling thread plus this pool's idle workers; nil: the calling thread only.
    public var pool: WorkerPool?
    /// The pixel cap (`--max-megapixels`): a header declaring more is listed too large.
    public var maxPixels = EngineConfiguration.defaultMaxPixels
    /// `--show-raw-pairs`: list both files of a RAW+JPEG pair (by default the JPEG stands for both).
    public var showsRawPairs = false

    public init(root: String, maxDepth: Int = 64) {
        self.root = root
        self.maxDepth = maxDepth
    }

    /// Scans the library.
    /// - Parameters:
    ///   - previous: photos of the last scan by relative path: a file whose device, inode, size and
    ///     mtime are unchanged keeps its header without being opened (a rescan is a stat-only walk
    ///     plus the headers of what changed).
    ///   - onFolder: called with every folder walked, open, and its relative path (for inotify).
    /// - Returns: the new snapshot.
    /// - Throws: `.ioError` when the root does not exist, is not a folder or cannot be resolved.
    public func scan(reusing previous: [String: Photo] = [:],
                     onFolder: ((Int32, String) -> Void)? = nil) throws(PickerError) -> LibrarySnapshot {
        try scanCounting(reusing: previous, onFolder: onFolder, progress: nil).snapshot
    }

    /// What a rescan found, counted as it went (no second pass over 100,000 photos to compare).
    struct Result {
        var snapshot: LibrarySnapshot
        /// Files not in `previous`, and files in it whose version changed.
        var added: [String] = [], changed: [String] = []
        /// Files of `previous` found unchanged.
        var unchanged = 0
        /// Files found not to be images, with the version looked at (not opened again while unchanged).
        var notImages: [String: FileVersion] = [:]
    }

    /// `scan(reusing:onFolder:)`, also saying which files were added and changed.
    func scanCounting(reusing previous: [String: Photo], notImages known: [String: FileVersion] = [:],
                      onFolder: ((Int32, String) -> Void)?,
                      progress: ScanProgressMeter?) throws(PickerError) -> Result {
        let clock = ContinuousClock()
        let started = clock.now

        let rootDirectory: RootDirectory
        do throws(SystemError) {
            rootDirectory = try RootDirectory(path: root)
        } catch {
            if error.errno.rawValue == ENOTDIR { throw PickerError(.ioError, "the library '\(root)' is not a folder") }
            throw PickerError(.ioError, "cannot open the library folder '\(root)': \(error.errno)")
        }
        var walker = LibraryTreeWalker(root: rootDirectory, maxDepth: maxDepth)
        walker.statFiles = !previous.isEmpty || !known.isEmpty
        walker.onFolder = onFolder
        if let progress { walker.onFile = { progress.walking() } }
        walker.walkAll()

        let files = walker.files
        progress?.walkFinished(files: files.count)
        let outcomes = Self.readHeaders(files, root: rootDirectory, reusing: previous, notImages: known,
                                        progress: progress, pool: pool, maxPixels: maxPixels)

        var skipped = walker.skipped
        var byFolder: [String: [Photo]] = [:]
        var added: [String] = [], changed: [String] = [], unchanged = 0
        var notImages: [String: FileVersion] = [:]
        for (file, outcome) in zip(files, outcomes) {
            switch outcome {
            case .reused(let photo):
                unchanged += 1
                byFolder[file.folder, default: []].append(photo)
            case .header(let header, let st, let tooLarge):
                if previous[file.relative] == nil { added.append(file.relative) } else { changed.append(file.relative) }
                let photo = Photo(albumName: file.folder, fileName: file.name, relativePath: file.relative,
                                  header: header, byteSize: st.size, mtimeSeconds: st.mtimeSeconds,
                                  mtimeNanoseconds: st.mtimeNanoseconds, device: st.identity.device,
                                  inode: st.identity.inode,
                                  targetPath: file.openPath == file.relative ? nil : file.openPath, tooLarge: tooLarge)
                byFolder[file.folder, default: []].append(photo)
            case .skipped(let reason, let message):
                skipped.append(SkippedEntry(relativePath: file.relative, reason: reason, message: message))
            case .notAnImage(let message, let version):
                notImages[file.relative] = version
                skipped.append(SkippedEntry(relativePath: file.relative, reason: .notAnImage, message: message))
            }
        }

        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let snapshot = LibrarySnapshot.assemble(root: root, rootDirectory: rootDirectory, byFolder: byFolder,
                                                skipped: skipped, scanDurationSeconds: seconds,
                                                showsRawPairs: showsRawPairs)
        return Result(snapshot: snapshot, added: added, changed: changed, unchanged: unchanged, notImages: notImages)
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
        /// The header, and the status of the descriptor it was read from (what the index records);
        /// for a size over the cap, the header without its size and why (`Photo.tooLarge`).
        case header(ImageHeader, FileStatus, tooLarge: String?)
        /// Unchanged since the last scan (same device, inode, size and mtime): its record as it was.
        case reused(Photo)
        case skipped(SkippedEntry.Reason, String)
        /// Not an image (its version, so an unchanged file is never opened again: a folder of 200,000
        /// non-images cost ~3 s of CPU per event there when each was opened on every look).
        case notAnImage(String, FileVersion)
    }

    static func readHeaders(_ files: [FoundFile], root: RootDirectory, reusing previous: [String: Photo],
                            notImages known: [String: FileVersion] = [:], progress: ScanProgressMeter? = nil, pool: WorkerPool? = nil,
                            maxPixels: Int) -> [Outcome] {
        guard !files.isEmpty else { return [] }
        var outcomes = [Outcome](repeating: .skipped(.unreadable, "not read"), count: files.count)
        outcomes.withUnsafeMutableBufferPointer { buffer in
            let slots = SendableSlots(buffer)
            files.withUnsafeBufferPointer { input in
                let found = SendableInput(input)
                let readOne: @Sendable (Int) -> Void = { i in
                    let file = found.buffer[i]
                    if let st = file.status, let old = previous[file.relative], old.targetPath == nil,
                       old.version == st.version {
                        slots.buffer[i] = .reused(old)
                    } else if let st = file.status, file.openPath == file.relative, known[file.relative] == st.version {
                        slots.buffer[i] = .notAnImage("'\(file.relative)' is not an image (unchanged since last looked at)", st.version)
                    } else {
                        slots.buffer[i] = readHeader(file, root: root, maxPixels: maxPixels)
                    }
                    progress?.fileDone()
                }
                // The pool's idle workers help (never more threads than it has); else one thread.
                if let pool {
                    pool.forEach(files.count, readOne)
                } else {
                    for i in 0..<files.count { readOne(i) }
                }
            }
        }
        return outcomes
    }

    /// Opens the file beneath the root (never by full path) and reads its header.
    static func readHeader(_ file: FoundFile, root: RootDirectory, maxPixels: Int) -> Outcome {
        let fd: Int32
        let status: FileStatus
        do throws(SystemError) {
            (fd, status) = try root.openFile(file.openPath)
        } catch {
            if error.errno.rawValue == EXDEV {
                return .skipped(.outsideRoot, "'\(file.relative)' leads outside the library")
            }
            return .skipped(.unreadable, "cannot open '\(file.relative)': \(error.errno)")
        }
        defer { FileSystem.close(fd) }
        do throws(PickerError) {
            let declared = try ImageHeaderReader.readDeclared(fd: fd, fileSize: Int(status.size), name: file.relative)
            guard let reason = ImageHeaderReader.oversizeReason(declared, maxPixels: maxPixels) else {
                return .header(declared, status, tooLarge: nil)
            }
            // Listed (and marked) so the user sees why it never shows; its declared size is kept nowhere.
            let sizeless = ImageHeader(format: declared.format, storedWidth: 0, storedHeight: 0,
                                       dateTimeOriginal: declared.dateTimeOriginal)
            return .header(sizeless, status, tooLarge: reason)
        } catch {
            switch error.code {
            case .unsupportedImage: return .notAnImage(error.message, status.version)
            case .corruptImage, .imageTooLarge: return .skipped(.damagedHeader, error.message)
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
