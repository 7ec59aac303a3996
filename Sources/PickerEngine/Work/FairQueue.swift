/// Image jobs queued by fairness key (a connection), served least-attained-service first: the key
/// whose jobs have used the least worker time so far goes next, ties in turn. A client asking for
/// expensive renders thus waits longer than one asking for cheap ones, and one with 100 pipelined
/// requests gets no more than its share. A key that comes back after being idle (or is new) starts
/// at the current virtual time, so idling banks no credit; the virtual time advances with the service
/// given, divided among the waiting keys, so a stream of new keys cannot starve an old one.
/// One guard against starving the heavy: a job that has waited `maxWait` goes first (oldest first),
/// whatever its key has used, so under overload an expensive request is late, never lost to a timeout.
struct FairQueue<Item> {
    /// How long a job may wait before it is served regardless of its key's share.
    static var maxWait: Double { 5 }

    private var queues: [UInt64: [(item: Item, since: Double)]] = [:]
    /// Keys with queued items; the order breaks ties (a served key moves to the end).
    private var turns: [UInt64] = []
    /// Worker seconds charged to each key.
    private var served: [UInt64: Double] = [:]
    /// Where a new or returning key starts: advances by each charge divided by the keys waiting.
    private var virtualTime = 0.0

    var isEmpty: Bool { turns.isEmpty }

    /// Queues `item` for `key`; `now` is the clock reading (seconds) used for the wait guard.
    mutating func push(_ item: Item, key: UInt64, now: Double = 0) {
        if queues[key, default: []].isEmpty {
            turns.append(key)
            served[key] = max(served[key] ?? 0, virtualTime)
        }
        queues[key, default: []].append((item, now))
    }

    /// The next item and its key: a job waiting `maxWait` or more (the oldest), else the key with the
    /// least service (the first such in turn).
    mutating func pop(now: Double = 0) -> (key: UInt64, item: Item)? {
        guard let i = nextTurn(now: now) else { return nil }
        let key = turns.remove(at: i)
        guard var queue = queues[key], !queue.isEmpty else {
            queues[key] = nil
            return pop(now: now)
        }
        let item = queue.removeFirst().item
        if queue.isEmpty {
            queues[key] = nil
        } else {
            queues[key] = queue
            turns.append(key)
        }
        return (key, item)
    }

    /// Which entry of `turns` goes next.
    private func nextTurn(now: Double) -> Int? {
        let since = { (i: Int) -> Double in queues[turns[i]]?.first?.since ?? now }
        if let oldest = turns.indices.min(by: { since($0) < since($1) }), now - since(oldest) >= Self.maxWait {
            return oldest
        }
        return turns.indices.min { (served[turns[$0]] ?? 0) < (served[turns[$1]] ?? 0) }
    }

    /// Adds the worker time a job of `key` took.
    mutating func charge(_ key: UInt64, seconds: Double) {
        served[key, default: virtualTime] += max(0, seconds)
        virtualTime += max(0, seconds) / Double(turns.count + 1)
        // Keys of closed connections: forget idle ones now and then (they would restart at the virtual time anyway).
        if served.count > 4096 {
            served = served.filter { queues[$0.key] != nil }
        }
    }
}
