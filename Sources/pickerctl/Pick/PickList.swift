/// A scrollable list with a cursor and a substring filter: the album list and the photo list.
struct PickList<Item> {
    private(set) var items: [Item] = []
    /// What the filter matches against.
    private let label: (Item) -> String
    /// Each item's label lower-cased once, so typing into the filter of a 100,000-photo list stays quick.
    private var keys: [String] = []
    private(set) var filter = ""
    /// Positions in `items` that pass the filter, in order.
    private(set) var visible: [Int] = []
    /// Index into `visible`.
    private(set) var cursor = 0
    /// First visible row shown.
    private(set) var top = 0

    init(label: @escaping (Item) -> String) { self.label = label }

    var current: Item? { visible.isEmpty ? nil : items[visible[cursor]] }
    var count: Int { visible.count }
    func item(atRow row: Int) -> Item? { row >= 0 && row < visible.count ? items[visible[row]] : nil }

    mutating func replace(_ newItems: [Item], keepingCursorOn matches: ((Item) -> Bool)? = nil) {
        items = newItems
        keys = newItems.map { label($0).lowercased() }
        applyFilter()
        if let matches, let row = visible.firstIndex(where: { matches(items[$0]) }) { cursor = row }
    }

    /// Adds items after the last (the next page of a long album), keeping the cursor and the filter.
    mutating func append(_ more: [Item]) {
        let needle = filter.lowercased()
        let first = items.count
        items += more
        keys += more.map { label($0).lowercased() }
        visible += (first..<items.count).filter { needle.isEmpty || keys[$0].contains(needle) }
    }

    /// Puts `more` in place of the items from `position` on (a page loaded into a gap of stand-ins); the
    /// filter is not re-run (a list with gaps has none: filtering loads the whole list first).
    mutating func fill(at position: Int, with more: [Item]) {
        for (offset, item) in more.enumerated() where items.indices.contains(position + offset) {
            items[position + offset] = item
            keys[position + offset] = label(item).lowercased()
        }
    }

    /// Puts a fresh copy of the item at `position` in `items` (a re-read row: new marks, new size);
    /// the filter is not re-run, so the row stays where the user sees it.
    mutating func update(at position: Int, with item: Item) {
        guard items.indices.contains(position) else { return }
        items[position] = item
        keys[position] = label(item).lowercased()
    }

    mutating func setFilter(_ text: String) {
        let narrower = !filter.isEmpty && text.lowercased().hasPrefix(filter.lowercased())
        let position = visible.isEmpty ? nil : visible[cursor]
        filter = text
        applyFilter(narrowing: narrower)
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
        let needle = filter.lowercased()
        visible = (narrowing ? visible : Array(items.indices)).filter { needle.isEmpty || keys[$0].contains(needle) }
        cursor = min(cursor, max(0, visible.count - 1))
        top = min(top, cursor)
    }
}
