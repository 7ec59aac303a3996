import PickerProtocol

/// The `selectPhoto`s pick has posted and not yet heard back from (issue 24 item 9): the cursor moves
/// at once and the picture is asked for behind them, without waiting for their replies. pickerd
/// answers each with the session, and announces each change on the event connection, in order; until
/// the last ask is heard of, the session events of the earlier ones are old news and must not move the
/// cursor back.
struct PhotoAsks {
    /// Album positions asked for, oldest first, whose session event has not come yet.
    private(set) var unheard: [Int] = []
    /// The ticket of the newest ask: only its reply is the session as the user left it.
    private(set) var newest: Int? = nil

    /// The photo pick asked for last (nil: no ask on the way).
    var lastAsked: Int? { unheard.last }

    mutating func asked(_ index: Int, ticket: Int) {
        unheard.append(index)
        newest = ticket
    }

    /// A request that waited for its reply moved the photo after the asks: their replies are old news.
    mutating func overtaken() { newest = nil }

    /// A reply arrived: whether it is the newest ask's (the others are superseded by it).
    mutating func replied(_ ticket: Int, failedFor index: Int?) -> Bool {
        // A refused ask changes nothing, so no event will come for it.
        if let index, let at = unheard.lastIndex(of: index) { unheard.remove(at: at) }
        guard ticket == newest else { return false }
        newest = nil
        return true
    }

    /// Whether the session event of an ask for `index` has yet to come.
    func isUnheard(_ index: Int) -> Bool { unheard.contains(index) }

    /// A session event about the current photo: true when it is one of pick's own earlier asks with
    /// newer ones still to come (keep what pick shows), false when it is news to take in.
    mutating func isOldNews(_ state: SessionState) -> Bool {
        guard let index = state.photoIndex, let at = unheard.firstIndex(of: index) else { return false }
        unheard.removeFirst(at + 1)
        return !unheard.isEmpty
    }
}
