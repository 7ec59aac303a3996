import Synchronization

/// What a cached value costs against the cache's byte bound.
public protocol CacheCost {
    var cacheCost: Int { get }
}

/// Values in memory under a byte bound, least recently used evicted first. Thread-safe.
/// One implementation for encoded results (`RenderCache`) and thumbnail cells.
public final class BoundedCache<Value: Sendable & CacheCost>: Sendable {
    private struct Entry {
        var value: Value
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

    public init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
    }

    public func get(_ key: RenderKey) -> Value? {
        state.withLock { s in
            s.clock += 1
            guard var e = s.entries[key] else {
                s.misses += 1
                return nil
            }
            e.lastUse = s.clock
            s.entries[key] = e
            s.hits += 1
            return e.value
        }
    }

    /// Whether a value is cached, without counting a hit or a use (the scheduler's probe).
    public func contains(_ key: RenderKey) -> Bool {
        state.withLock { $0.entries[key] != nil }
    }

    /// Stores a value; one larger than the whole bound is not kept.
    public func put(_ key: RenderKey, _ value: Value) {
        let cost = value.cacheCost
        guard cost <= capacityBytes else { return }
        state.withLock { s in
            s.clock += 1
            if let old = s.entries[key] { s.bytes -= old.value.cacheCost }
            s.entries[key] = Entry(value: value, lastUse: s.clock)
            s.bytes += cost
            while s.bytes > capacityBytes, let victim = s.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                s.bytes -= victim.value.value.cacheCost
                s.entries[victim.key] = nil
            }
        }
    }

    /// Bytes held, entries, hits and misses: for logs and tests.
    public var statistics: (bytes: Int, entries: Int, hits: Int, misses: Int) {
        state.withLock { ($0.bytes, $0.entries.count, $0.hits, $0.misses) }
    }
}
