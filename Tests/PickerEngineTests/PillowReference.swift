import Foundation
import Testing
import PickerTestSupport

/// Pillow (/usr/bin/python3) as an independent reader: the first frame of a file, as RGBA.
enum PillowReference {
    /// Whether /usr/bin/python3 can import Pillow (tests that need it are skipped otherwise).
    static var isAvailable: Bool { SharedThumbnailStoreTests.hasPillow }

    /// Pillow's first frame (`seek(0)`) of `bytes`, converted to RGBA: width × height × 4 bytes.
    static func firstFrameRGBA(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let dir = NSTemporaryDirectory() + "pickerd-pillow-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/in", output = dir + "/out.rgba"
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let script = "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1])\nim.seek(0)\n"
            + "open(sys.argv[2], 'wb').write(im.convert('RGBA').tobytes())\n"
        let result = try runChild("/usr/bin/python3", ["-c", script, input, output])
        try #require(result.exitCode == 0, "Pillow: \(result)", sourceLocation: sourceLocation)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}
