import CPickerCodecs
import PickerProtocol
import Synchronization

/// Identifies one rendered result: the file's identity (path, size, mtime) plus what was asked.
public struct RenderKey: Hashable, Sendable {
    public var path: String
    public var fileSize: Int64
    public var mtimeSeconds: Int64
    public var mtimeNanoseconds: Int64
    public var width: Int
    public var height: Int
    public var format: ImageFormat
    public var quality: Int
    /// Distinguishes kinds of output of the same size (fit, thumbnail cell, preview).
    public var variant: UInt8

    public init(path: String, fileSize: Int64, mtimeSeconds: Int64, mtimeNanoseconds: Int64,
                width: Int, height: Int, format: ImageFormat, quality: Int, variant: UInt8 = 0) {
        self.path = path
        self.fileSize = fileSize
        self.mtimeSeconds = mtimeSeconds
        self.mtimeNanoseconds = mtimeNanoseconds
        self.width = width
        self.height = height
        self.format = format
        self.quality = quality
        self.variant = variant
    }
}

/// Encoded results in memory under a byte bound, least recently used evicted first.
public final class RenderCache: Sendable {
    private struct Entry {
        var image: EncodedImage
        var lastUse: UInt64
    }
    private struct State {
        var entries: [RenderKey: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    public let capacityBytes: Int
    private let state = Mutex(State())

    /// Blocks at least this big get their own mapping, returned to the system on free.
    public static let largeBlockBytes = 256 << 10

    /// A cache holding at most `capacityBytes` of encoded results.
    ///
    /// Also sets the process's malloc to give blocks of `largeBlockBytes` and
    /// up back to the system when freed (`pk_map_large_blocks`): otherwise
    /// evicted entries and per-request pixel buffers stay in glibc's
    /// per-thread arenas, and the daemon's RSS ends tens of MiB above
    /// base + bound (measured: 71 MiB instead of 39 after 200 requests with
    /// a 16 MiB bound). It costs a few page faults per request.
    public init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
        pk_map_large_blocks(Self.largeBlockBytes)
    }

    public func get(_ key: RenderKey) -> EncodedImage? {
        state.withLock { s in
            s.clock += 1
            guard var e = s.entries[key] else {
                s.misses += 1
                return nil
            }
            e.lastUse = s.clock
            s.entries[key] = e
            s.hits += 1
            return e.image
        }
    }

    /// Stores a result; one larger than the whole bound is not kept.
    public func put(_ key: RenderKey, _ image: EncodedImage) {
        let size = image.data.count + 256
        guard size <= capacityBytes else { return }
        state.withLock { s in
            s.clock += 1
            if let old = s.entries[key] { s.bytes -= old.image.data.count + 256 }
            s.entries[key] = Entry(image: image, lastUse: s.clock)
            s.bytes += size
            while s.bytes > capacityBytes, let victim = s.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                s.bytes -= victim.value.image.data.count + 256
                s.entries[victim.key] = nil
            }
        }
    }

    /// Bytes held, entries, hits and misses: for logs and tests.
    public var statistics: (bytes: Int, entries: Int, hits: Int, misses: Int) {
        state.withLock { ($0.bytes, $0.entries.count, $0.hits, $0.misses) }
    }
}
