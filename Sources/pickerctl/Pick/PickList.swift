/// A scrollable list with a cursor and a fuzzy filter (fzf's matching and scoring, `FuzzyMatch`): the
/// album list and the photo list. Filtered, the best match comes first (ties in list order).
struct PickList<Item> {
    private(set) var items: [Item] = []
    /// What the filter matches against.
    private let label: (Item) -> String
    /// Each item's label prepared for matching once, so typing into the filter of a 100,000-photo list stays quick.
    private var keys: [FuzzyMatch.Prepared] = []
    private(set) var filter = ""
    /// Positions in `items` that pass the filter, best match first.
    private(set) var visible: [Int] = []
    /// The matched characters of each visible row (scalar offsets in its label), for highlighting.
    private var matched: [[Int]] = []
    /// Index into `visible`.
    private(set) var cursor = 0
    /// First visible row shown.
    private(set) var top = 0

    init(label: @escaping (Item) -> String) { self.label = label }

    var current: Item? { visible.isEmpty ? nil : items[visible[cursor]] }
    var count: Int { visible.count }
    func item(atRow row: Int) -> Item? { row >= 0 && row < visible.count ? items[visible[row]] : nil }
    /// The characters of row `row`'s label the filter matched (none without a filter).
    func matchedPositions(atRow row: Int) -> [Int] { row >= 0 && row < matched.count ? matched[row] : [] }

    mutating func replace(_ newItems: [Item], keepingCursorOn matches: ((Item) -> Bool)? = nil) {
        items = newItems
        keys = newItems.map { FuzzyMatch.Prepared(label($0)) }
        applyFilter()
        if let matches, let row = visible.firstIndex(where: { matches(items[$0]) }) { cursor = row }
    }

    /// Adds items after the last (the next page of a long album), keeping the cursor and the filter.
    mutating func append(_ more: [Item]) {
        let first = items.count
        items += more
        keys += more.map { FuzzyMatch.Prepared(label($0)) }
        guard !filter.isEmpty else {
            visible += first..<items.count
            return
        }
        let position = visible.isEmpty ? nil : visible[cursor]
        applyFilter()
        if let position, let row = visible.firstIndex(of: position) { cursor = row }
    }

    /// Puts `more` in place of the items from `position` on (a page loaded into a gap of stand-ins); the
    /// filter is not re-run (a list with gaps has none: filtering loads the whole list first).
    mutating func fill(at position: Int, with more: [Item]) {
        for (offset, item) in more.enumerated() where items.indices.contains(position + offset) {
            items[position + offset] = item
            keys[position + offset] = FuzzyMatch.Prepared(label(item))
        }
    }

    /// Puts a fresh copy of the item at `position` in `items` (a re-read row: new marks, new size);
    /// the filter is not re-run, so the row stays where the user sees it.
    mutating func update(at position: Int, with item: Item) {
        guard items.indices.contains(position) else { return }
        items[position] = item
        keys[position] = FuzzyMatch.Prepared(label(item))
    }

    mutating func setFilter(_ text: String) {
        let narrower = !filter.isEmpty && text.hasPrefix(filter)
        let position = visible.isEmpty ? nil : visible[cursor]
        filter = text
        applyFilter(narrowing: narrower)
        // As in fzf, a new query puts the cursor on its best match.
        if !text.isEmpty { cursor = 0 }
        // A cleared filter (Esc) keeps the row the user was on, not the same row number of the full list.
        if text.isEmpty, let position, let row = visible.firstIndex(of: position) { cursor = row }
    }

    /// Moves the cursor by `delta` rows (clamped); returns whether it moved.
    @discardableResult
    mutating func move(by delta: Int) -> Bool {
        guard !visible.isEmpty else { return false }
        let old = cursor
        cursor = min(max(cursor + delta, 0), visible.count - 1)
        return cursor != old
    }

    /// Puts the cursor on the first visible item that matches; returns whether one did.
    @discardableResult
    mutating func moveCursor(to matches: (Item) -> Bool) -> Bool {
        guard let row = visible.firstIndex(where: { matches(items[$0]) }) else { return false }
        cursor = row
        return true
    }

    /// Scrolls so the cursor is on screen in a pane `height` rows tall.
    mutating func scroll(toShow height: Int) {
        if cursor < top { top = cursor }
        if cursor >= top + height { top = cursor - height + 1 }
        top = max(0, min(top, max(0, visible.count - height)))
    }

    /// `narrowing`: the new filter extends the old one, so only what passed the old one can pass it.
    private mutating func applyFilter(narrowing: Bool = false) {
        let query = FuzzyMatch.query(filter)
        if query.isEmpty {
            visible = Array(items.indices)
            matched = []
        } else {
            var scored: [(position: Int, match: FuzzyMatch.Match)] = []
            for position in narrowing ? visible : Array(items.indices) {
                if let m = FuzzyMatch.match(query, in: keys[position]) { scored.append((position, m)) }
            }
            scored.sort { $0.match.score != $1.match.score ? $0.match.score > $1.match.score : $0.position < $1.position }
            visible = scored.map(\.position)
            matched = scored.map(\.match.positions)
        }
        cursor = min(cursor, max(0, visible.count - 1))
        top = min(top, cursor)
    }
}
