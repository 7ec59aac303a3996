import PickerProtocol

extension PickerService {
    /// After a rescan, sessions follow pairs that formed: a RAW a session looked at or picked while
    /// it was listed alone is hidden once its JPEG arrives, so the JPEG — the pair, now — becomes the
    /// current photo and takes the RAW's place in the picks (`RawPairing`).
    /// - Parameter added: the rescan's added paths (a pair forms when its JPEG is added).
    func followFormedPairs(_ added: [String], in snapshot: LibrarySnapshot) {
        var jpegOf: [String: String] = [:]
        for path in added {
            guard let photo = library.photo(relativePath: path), photo.format == .jpeg,
                  let raw = snapshot.rawCompanion(of: photo) else { continue }
            jpegOf[raw.relativePath] = path
        }
        guard !jpegOf.isEmpty else { return }
        for session in sessions.all() {
            let movesCurrent = session.photo.map { jpegOf[$0] != nil } ?? false
            guard movesCurrent || session.selection.contains(where: { jpegOf[$0] != nil }) else { continue }
            guard let change = try? changeSession(session.name, .selection, { s in
                if let current = s.photo, let jpeg = jpegOf[current] { s.photo = jpeg }
                var seen = Set<String>()
                s.selection = s.selection.map { jpegOf[$0] ?? $0 }.filter { seen.insert($0).inserted }
            }) else { continue }
            if movesCurrent { _ = announce(.photo, change.state) }
        }
    }
}
