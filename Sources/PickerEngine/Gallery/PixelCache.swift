import Synchronization

/// Decoded thumbnail cells in memory under a byte bound, least recently used evicted first.
final class PixelCache: Sendable {
    private struct State {
        var entries: [RenderKey: (image: PixelImage, lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    let capacityBytes: Int
    private let state = Mutex(State())

    init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
    }

    func get(_ key: RenderKey) -> PixelImage? {
        state.withLock { s in
            s.clock += 1
            guard let e = s.entries[key] else { return nil }
            s.entries[key] = (e.image, s.clock)
            return e.image
        }
    }

    func put(_ key: RenderKey, _ image: PixelImage) {
        let size = image.pixels.count + 128
        guard size <= capacityBytes else { return }
        state.withLock { s in
            s.clock += 1
            if let old = s.entries[key] { s.bytes -= old.image.pixels.count + 128 }
            s.entries[key] = (image, s.clock)
            s.bytes += size
            while s.bytes > capacityBytes, let victim = s.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                s.bytes -= victim.value.image.pixels.count + 128
                s.entries[victim.key] = nil
            }
        }
    }
}
