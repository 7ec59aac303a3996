import Foundation

/// Calls Tests/tools/imagecheck.py (Pillow): an independent judge of our output.
enum ImageCheck {
    struct Info: Decodable { var format: String; var width: Int; var height: Int; var mode: String }
    struct Comparison: Decodable { var mad: Double; var edge_mad: Double; var width: Int; var height: Int }

    static var script: String { TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/imagecheck.py").path }

    static func run<T: Decodable>(_ args: [String], as: T.Type) async throws -> T {
        let r = try await runProcess(TestEnvironment.python, [script] + args)
        guard r.exitCode == 0 else { throw CheckError.failed("imagecheck \(args): \(r.stderr)") }
        return try JSONDecoder().decode(T.self, from: r.stdout)
    }

    static func info(_ file: URL) async throws -> Info { try await run(["info", file.path], as: Info.self) }

    /// Mean absolute difference (0…255) of `output` against `reference` scaled to the same size.
    static func compare(_ output: URL, _ reference: URL, upright: Bool) async throws -> Double {
        try await comparison(output, reference, upright: upright).mad
    }

    static func comparison(_ output: URL, _ reference: URL, upright: Bool, crop: [Int]? = nil) async throws -> Comparison {
        let cropped = crop.map { ["--crop", $0.map(String.init).joined(separator: ",")] } ?? []
        return try await run(["compare", output.path, reference.path] + (upright ? ["--upright"] : []) + cropped, as: Comparison.self)
    }

    /// Mean brightness of each rectangle (x, y, w, h).
    static func regions(_ file: URL, _ boxes: [[Int]]) async throws -> [Double] {
        let json = String(decoding: try JSONEncoder().encode(boxes), as: UTF8.self)
        return try await run(["regions", file.path, json], as: [Double].self)
    }

    /// A PNG's text chunks.
    static func text(_ file: URL) async throws -> [String: String] { try await run(["text", file.path], as: [String: String].self) }


    enum CheckError: Error { case failed(String) }
}

/// True when `data` starts with the PNG signature.
func isPNG(_ data: Data) -> Bool { data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }

/// Width and height from a PNG's IHDR.
func pngSize(_ data: Data) -> (Int, Int)? {
    guard isPNG(data), data.count >= 24 else { return nil }
    let b = [UInt8](data.prefix(24))
    let w = Int(b[16]) << 24 | Int(b[17]) << 16 | Int(b[18]) << 8 | Int(b[19])
    let h = Int(b[20]) << 24 | Int(b[21]) << 16 | Int(b[22]) << 8 | Int(b[23])
    return (w, h)
}
