#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// A regular file found by the walk.
struct FoundFile: Sendable {
    /// Folder path relative to the root ("" for the root).
    var folder: String
    var name: String
    /// Path relative to the root, as walked.
    var relative: String
    /// Path to open beneath the root: `relative`, or a symlink's resolved target inside the root.
    var openPath: String
    /// `fstatat` of the entry during the walk, when asked for (to reuse an unchanged file's header).
    var status: FileStatus? = nil
}

/// The directory walk (single-threaded; header reading is the parallel part). Every folder is
/// opened relative to its parent's descriptor with `O_NOFOLLOW` (or, for a symlinked folder,
/// beneath the root descriptor), so a folder swapped for a symlink while we walk lists nothing
/// outside the library.
struct LibraryTreeWalker {
    let root: RootDirectory
    let maxDepth: Int
    /// Stat each regular file during the walk (a rescan compares them with the index).
    var statFiles = false
    /// Called with each folder walked, open, and its path relative to the root ("" for the root):
    /// the library watcher adds its inotify watch there.
    var onFolder: ((Int32, String) -> Void)? = nil
    /// Called with each regular file found (the scan's progress meter: a long walk is news too).
    var onFile: (() -> Void)? = nil
    /// Folders already walked (device and inode): each is walked once, which also ends symlink loops.
    private var visited: Set<FileIdentity> = []
    private(set) var files: [FoundFile] = []
    private(set) var skipped: [SkippedEntry] = []
    /// Symlinked folders inside the root, walked after the real folders so that a real folder's
    /// own path names its album.
    private var deferred: [(target: String, relative: String, depth: Int)] = []

    init(root: RootDirectory, maxDepth: Int) {
        self.root = root
        self.maxDepth = maxDepth
    }

    /// Walks the whole tree: the real folders first, then symlinked ones.
    mutating func walkAll() {
        visited.insert(root.status.identity)
        do throws(SystemError) {
            let fd = try root.openDirectory("")
            defer { FileSystem.close(fd) }
            walk(fd, relative: "", depth: 0)
        } catch {
            skip(".", .unreadable, "cannot list folder '.': \(error.errno)")
        }
        while !deferred.isEmpty {
            let next = deferred.removeFirst()
            walkLinkedFolder(next.target, relative: next.relative, depth: next.depth)
        }
    }

    private mutating func walkLinkedFolder(_ target: String, relative: String, depth: Int) {
        do throws(SystemError) {
            let fd = try root.openDirectory(target)
            defer { FileSystem.close(fd) }
            guard visited.insert(try FileSystem.status(fd).identity).inserted else { return }
            walk(fd, relative: relative, depth: depth)
        } catch {
            skip(relative, error.errno.rawValue == EXDEV ? .outsideRoot : .unreadable,
                 "cannot list folder '\(relative)': \(error.errno)")
        }
    }

    /// Lists the folder open at `directory` and walks its real subfolders depth-first.
    private mutating func walk(_ directory: Int32, relative: String, depth: Int) {
        onFolder?(directory, relative)
        let shown = relative.isEmpty ? "." : relative
        let listing: [DirectoryListing.Entry]
        do throws(SystemError) {
            let (entries, invalid) = try DirectoryListing.entries(of: directory)
            if invalid > 0 {
                skip(relative.isEmpty ? "?" : relative + "/?", .unreadable,
                     "\(invalid) name(s) in '\(shown)' are not valid UTF-8")
            }
            // Hidden entries are skipped. No sort here: albums are put in natural order when the
            // snapshot is assembled (sorting 1000 names a folder cost 7 % of a 100,000-photo rescan).
            listing = entries.filter { !$0.name.hasPrefix(".") }
        } catch {
            skip(shown, .unreadable, "cannot list folder '\(shown)': \(error.errno)")
            return
        }
        for entry in listing {
            let child = relative.isEmpty ? entry.name : relative + "/" + entry.name
            var kind = entry.kind
            if !entry.kindIsKnown {
                do throws(SystemError) {
                    kind = try FileSystem.status(of: entry.name, in: directory).kind
                } catch {
                    skip(child, .unreadable, "cannot stat '\(child)': \(error.errno)")
                    continue
                }
            }
            switch kind {
            case .regular:
                var file = FoundFile(folder: relative, name: entry.name, relative: child, openPath: child)
                if statFiles { file.status = try? FileSystem.status(of: entry.name, in: directory) }
                files.append(file)
                onFile?()
            case .directory:
                walkSubfolder(entry.name, of: directory, relative: child, depth: depth + 1)
            case .symlink:
                followSymlink(child, folder: relative, name: entry.name, depth: depth + 1)
            case .other:
                continue  // FIFOs, sockets, devices are never opened
            }
        }
    }

    private mutating func walkSubfolder(_ name: String, of parent: Int32, relative: String, depth: Int) {
        guard depth <= maxDepth else {
            skip(relative, .tooDeep, "folder '\(relative)' is nested too deep")
            return
        }
        do throws(SystemError) {
            // O_NOFOLLOW: a folder swapped for a symlink since readdir is refused (ELOOP), not followed.
            let fd = try FileSystem.openChild(of: parent, name: name, flags: FileSystem.directoryFlags)
            defer { FileSystem.close(fd) }
            guard visited.insert(try FileSystem.status(fd).identity).inserted else { return }
            walk(fd, relative: relative, depth: depth)
        } catch {
            skip(relative, .unreadable, "cannot list folder '\(relative)': \(error.errno)")
        }
    }

    /// A symlink is kept when its target resolves inside the root: the target's path relative to
    /// the root is what gets opened, beneath the root descriptor, so it stays checked at open time.
    private mutating func followSymlink(_ relative: String, folder: String, name: String, depth: Int) {
        let target: String
        do throws(SystemError) {
            target = try FileSystem.realPath(LibraryPath.join(root.path, relative))
        } catch {
            let broken = error.errno.rawValue == ENOENT || error.errno.rawValue == ENOTDIR
            skip(relative, broken ? .brokenSymlink : .unreadable, "cannot follow symlink '\(relative)': \(error.errno)")
            return
        }
        guard let inside = root.relativePath(of: target) else {
            skip(relative, .outsideRoot, "symlink '\(relative)' leads outside the library")
            return
        }
        if inside.isEmpty { return }  // the root itself: walked already
        do throws(SystemError) {
            let fd = try root.openDirectory(inside)
            FileSystem.close(fd)
            if depth > maxDepth {
                skip(relative, .tooDeep, "folder '\(relative)' is nested too deep")
            } else {
                deferred.append((inside, relative, depth))
            }
        } catch where error.errno.rawValue == ENOTDIR {
            // A file: opened beneath the root when its header is read.
            files.append(FoundFile(folder: folder, name: name, relative: relative, openPath: inside))
        } catch {
            skip(relative, error.errno.rawValue == EXDEV ? .outsideRoot : .unreadable,
                 "cannot follow symlink '\(relative)': \(error.errno)")
        }
    }

    private mutating func skip(_ relative: String, _ reason: SkippedEntry.Reason, _ message: String) {
        skipped.append(SkippedEntry(relativePath: relative, reason: reason, message: message))
    }
}
