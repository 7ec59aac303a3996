/// Fuzz target "pngtext": `PNGTextChunks.read` over a file from the shared thumbnail cache,
/// which other programs write (untrusted), as `SharedThumbnailStore` reads it.
///
/// The input is the whole file. Besides not crashing, the reader keeps its documented bounds:
/// nil exactly when the PNG signature is missing, keywords of 1–79 characters, values no longer
/// than a text chunk may be, at most one entry per chunk looked at.
public enum PNGTextFuzzEntry {
    public static func run(_ bytes: [UInt8]) -> FuzzFindings {
        var findings = FuzzFindings()
        let isPNG = bytes.starts(with: PNGTextChunks.signature)
        guard let entries = PNGTextChunks.read(bytes) else {
            findings.expect(!isPNG, "a file with the PNG signature read as not a PNG")
            return findings
        }
        findings.expect(isPNG, "a file without the PNG signature read as a PNG")
        findings.expect(entries.count <= PNGTextChunks.maxChunks, "\(entries.count) entries from at most \(PNGTextChunks.maxChunks) chunks")
        for (key, value) in entries {
            findings.expect((1...79).contains(key.unicodeScalars.count), "keyword of \(key.unicodeScalars.count) characters")
            findings.expect(!key.unicodeScalars.contains("\0"), "keyword with a NUL")
            // Latin-1 text is one scalar a byte; UTF-8 text at most one scalar a byte.
            findings.expect(value.unicodeScalars.count <= PNGTextChunks.maxTextChunkLength,
                            "value of \(value.unicodeScalars.count) characters from a chunk of at most \(PNGTextChunks.maxTextChunkLength) bytes")
        }
        // What SharedThumbnailStore does with the entries it found.
        _ = entries["Thumb::MTime"].flatMap { Int64($0) }
        _ = entries["Thumb::URI"] == "file:///fuzz"
        return findings
    }
}
