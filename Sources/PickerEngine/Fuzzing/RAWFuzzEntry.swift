import PickerProtocol

/// Fuzz target "raw": the camera RAW container walks (`TIFFWalk`, `CR3Boxes`, `RAFHeader`, by
/// `RAWLayout.read`) over one file, each family's walk tried whatever the magic bytes say, then,
/// for a file sniffed as RAW, the whole decode layer as `ImageFuzzEntry` runs it (preview choice,
/// JPEG decode of the preview, LibRaw's develop when the sensor data is whole).
///
/// Promises: the walks never trap; every preview and sensor range they report lies inside the
/// file and is not empty; a layout has a positive size; a plain TIFF is told apart, not damaged.
public enum RAWFuzzEntry {
    static let families: [RAWKind] = [.tiff, .cr2, .orf, .rw2, .raf, .cr3]

    public static func run(_ bytes: [UInt8]) -> FuzzFindings {
        var findings = FuzzFindings()
        for kind in families {
            var source = InMemoryBytes(data: bytes)
            guard let layout = try? RAWLayout.read(&source, kind: kind) else { continue }
            check(layout, kind: kind, fileSize: bytes.count, findings: &findings)
        }
        if FormatSniffer.sniff(bytes) == .raw {
            for problem in ImageFuzzEntry.run(bytes).problems { findings.expect(false, problem) }
        }
        return findings
    }

    static func check(_ layout: RAWLayout, kind: RAWKind, fileSize: Int, findings: inout FuzzFindings) {
        findings.expect(layout.size.width > 0 && layout.size.height > 0, "\(kind): layout size \(layout.size)")
        for preview in layout.previews {
            findings.expect(!preview.range.isEmpty && preview.range.lowerBound >= 0 && preview.range.upperBound <= fileSize,
                            "\(kind): preview \(preview.range) outside a \(fileSize)-byte file")
        }
        for range in layout.sensorData ?? [] {
            findings.expect(!range.isEmpty && range.lowerBound >= 0 && range.upperBound <= fileSize,
                            "\(kind): sensor data \(range) outside a \(fileSize)-byte file")
        }
    }
}
