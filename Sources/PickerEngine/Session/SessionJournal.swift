import PickerSystem

/// `sessions.journal`, open: where the session writer appends a round's changes (one `pwrite` +
/// `fdatasync`, see `InPlaceFile`) instead of replacing `sessions.json` every round. Its bytes are
/// `SessionJournalFormat`'s. Used by the writer thread alone.
struct SessionJournal {
    static let fileName = "sessions.journal"
    /// A few thousand rounds of one or two changed sessions; a round that does not fit is folded
    /// into `sessions.json` instead (`SessionPersistence`).
    static let capacity = 2 << 20

    private let file: InPlaceFile
    /// The generation `sessions.json` names and every record is bound to; empty until the first
    /// `reset` (nothing is appended before it: the first write of a start is a fold).
    private(set) var generation: [UInt8] = []
    private var end = SessionJournalFormat.headerSize
    private var nextNumber: UInt32 = 1

    /// Records appended since the last `reset`.
    var records: Int { Int(nextNumber) - 1 }

    /// Opens (or makes) the journal of `folder`. What it holds is left as it is until `reset`:
    /// restoring reads it first, and the fold that follows starts it again.
    init(in folder: StateDirectory) throws(SystemError) {
        file = try InPlaceFile(Self.fileName, in: folder, capacity: Self.capacity)
    }

    /// Appends `change` durably; false when it does not fit (nothing is written then).
    mutating func append(_ change: SessionJournalFormat.Change) throws -> Bool {
        guard !generation.isEmpty else { return false }
        let record = try SessionJournalFormat.record(change, number: nextNumber, generation: generation)
        guard end + record.count <= Self.capacity else { return false }
        try file.write(record, at: end)
        end += record.count
        nextNumber += 1
        return true
    }

    /// Starts the journal again, empty, for `generation` (`sessions.json` naming it is on disk).
    /// The old records stay in the file but are of another generation: they never read back.
    mutating func reset(generation: [UInt8]) throws(SystemError) {
        try file.write(SessionJournalFormat.header(generation: generation), at: 0)
        self.generation = generation
        end = SessionJournalFormat.headerSize
        nextNumber = 1
    }
}
