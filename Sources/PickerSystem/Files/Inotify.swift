#if canImport(Glibc)
import Glibc
#endif

/// An inotify instance: watches folders and reports what happened in them. Non-blocking, close-on-exec;
/// `wait(timeoutMilliseconds:)` polls, `drain()` reads every queued event.
public final class Inotify: @unchecked Sendable {
    /// One event: the watch it came from, what happened, and the entry's name ("" for the folder itself).
    public struct Event: Sendable, Equatable {
        public var watch: Int32
        public var mask: UInt32
        public var name: String
    }

    /// What a library folder is watched for: entries created, written (each write restarts the settle
    /// delay, so a file being copied is looked at once, after its last write), closed, moved in or out,
    /// deleted, attributes changed, and the folder itself deleted or moved. (No `IN_DONT_FOLLOW`: the
    /// path given is `/proc/self/fd/N`, a link that must be followed to the folder already open.)
    public static let folderMask: UInt32 = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB) | UInt32(IN_ONLYDIR)
    /// The kernel dropped events (its queue was full): everything must be looked at again.
    public static let overflow = UInt32(IN_Q_OVERFLOW)
    /// The watch is gone (its folder was deleted or unmounted).
    public static let ignored = UInt32(IN_IGNORED)
    /// The watched folder itself was deleted or moved away (or its watch is gone): for the library
    /// root, the folder at the library's path must be looked at again.
    public static let folderItselfGone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)
    /// Events that change the tree's shape (a subfolder made, moved or deleted; the folder itself
    /// gone or moved; events lost): more than the files of one folder must be looked at.
    public static let structural = UInt32(IN_ISDIR) | UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_Q_OVERFLOW)
        | UInt32(IN_IGNORED)

    public let descriptor: Int32

    /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`.
    public init() throws(SystemError) {
        descriptor = try retryingInterrupts("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    deinit { FileSystem.close(descriptor) }

    /// `inotify_add_watch(2)` on an open folder (through `/proc/self/fd`, so the folder watched is the
    /// one opened beneath the library root, not whatever a path leads to now). Watching a folder again
    /// returns its existing watch.
    /// - Throws: `ENOSPC` when the user's watches (`max_user_watches`) are used up.
    public func watch(folder fd: Int32, mask: UInt32 = Inotify.folderMask) throws(SystemError) -> Int32 {
        try retryingInterrupts("inotify_add_watch") { inotify_add_watch(descriptor, "/proc/self/fd/\(fd)", mask) }
    }

    /// `inotify_rm_watch(2)`; a watch already gone is not an error.
    public func unwatch(_ watch: Int32) {
        _ = inotify_rm_watch(descriptor, watch)
    }

    /// Waits until events are queued or the time passes (`poll(2)`); a negative timeout waits forever.
    /// - Returns: true when events can be read.
    public func wait(timeoutMilliseconds: Int32) -> Bool {
        var pfd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let n = poll(&pfd, 1, timeoutMilliseconds)
            if n >= 0 { return n > 0 }
            if errno != EINTR { return false }
        }
    }

    /// Reads every event queued now.
    public func drain() -> [Event] {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return events }
            buffer.withUnsafeBytes { raw in
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= n {
                    let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = raw[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }
                    events.append(Event(watch: watch, mask: mask, name: String(decoding: nameBytes, as: UTF8.self)))
                    offset += header + length
                }
            }
        }
    }
}
