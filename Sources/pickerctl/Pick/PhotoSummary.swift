import PickerProtocol

/// `i`: the current photo's details (`photoInfo`) in one line at the header's right, in place of the
/// session's message: camera, lens, exposure, date, size, file size and format, whatever the reply
/// has. Shown only for the photo it describes, so it never tells of the photo before.
struct PhotoSummary: Equatable {
    /// The album position it describes, and the file's revision then (a rewritten file is asked again).
    var index: Int
    var revision = 0
    /// The parts in reading order, each with its rank: the highest rank is dropped first to fit.
    var parts: [(text: String, rank: Int)]

    static func == (a: PhotoSummary, b: PhotoSummary) -> Bool {
        a.index == b.index && a.revision == b.revision && a.parts.map(\.text) == b.parts.map(\.text) && a.parts.map(\.rank) == b.parts.map(\.rank)
    }

    init(index: Int, revision: Int = 0, _ d: PhotoDetails) {
        self.index = index
        self.revision = revision
        // EXIF text is the file's: shown escaped, as names are.
        let make = PickRenderer.shown(d.cameraMake), model = PickRenderer.shown(d.cameraModel)
        let camera = model.lowercased().hasPrefix(make.lowercased()) ? model : [make, model].filter { !$0.isEmpty }.joined(separator: " ")
        let exposure = [d.exposureTime.map(InfoText.shutter), d.fNumber.map { "f/" + InfoText.decimal($0.value) },
                        d.iso.map { "ISO \($0)" }, d.focalLength.map { InfoText.decimal($0.value) + " mm" }]
            .compactMap { $0 }.joined(separator: " ")
        let candidates: [(String, Int)] = [
            (camera, 0), (PickRenderer.shown(d.lens), 4), (exposure, 6), (Render.date(d.date), 1),
            ("\(d.width)x\(d.height)", 2), (InfoText.decimal(Double(d.bytes) / 1_000_000) + " MB", 5), (d.format.displayName, 3),
        ]
        parts = candidates.filter { !$0.0.isEmpty }.map { (text: $0.0, rank: $0.1) }
    }

    /// The parts that fit in `width` columns, joined by ", ": the least important dropped first,
    /// then what is left cut to fit.
    func text(fitting width: Int, _ g: PickGlyphs) -> String {
        var kept = parts
        func joined() -> String { kept.map(\.text).joined(separator: ", ") }
        while kept.count > 1, TerminalColumns.width(of: joined()) > width,
              let worst = kept.indices.max(by: { kept[$0].rank < kept[$1].rank }) {
            kept.remove(at: worst)
        }
        let text = joined()
        return TerminalColumns.width(of: text) > width ? PickRenderer.fit(text, width, g) : text
    }
}

/// The one `photoInfo` in flight for the summary: posted (never waited for) when `i` is on and the
/// current photo has none yet; a reply for a photo no longer current is dropped.
struct PhotoSummaryAsk {
    private var pending: (ticket: Int, index: Int, revision: Int)? = nil
    /// The photo (and revision) last answered, also with an error: not asked again.
    private var answered: (index: Int, revision: Int)? = nil
    /// Asks overtaken by a newer one: their replies are swallowed.
    private var stale: Set<Int> = []

    /// Asks for the current photo's details when the summary is on and does not describe it yet.
    mutating func follow(_ model: inout PickerModel, daemon: PickDaemon) {
        let revision = model.pictureRevision
        guard model.infoShown, let index = model.session.photoIndex, answered.map({ $0 != (index, revision) }) ?? true,
              pending.map({ ($0.index, $0.revision) != (index, revision) }) ?? true else { return }
        if let old = pending { stale.insert(old.ticket) }
        do throws(CLIError) {
            pending = (try daemon.post(.photoInfo(session: daemon.session, photo: .index(index))), index, revision)
        } catch {
            pending = nil
            model.notice = error.message
        }
    }

    /// Takes `reply` when it answers the summary's ask; returns whether it did.
    mutating func take(_ ticket: Int, _ reply: Reply, into model: inout PickerModel) -> Bool {
        if stale.remove(ticket) != nil { return true }
        guard let asked = pending, asked.ticket == ticket else { return false }
        pending = nil
        answered = (asked.index, asked.revision)
        switch reply {
        case .photoInfo(let details): model.summary = PhotoSummary(index: asked.index, revision: asked.revision, details)
        case .error(let e): model.notice = "no details: " + e.message
        default: break
        }
        return true
    }
}
