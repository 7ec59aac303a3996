import Foundation
import PickerProtocol
import Testing
@testable import PickerEngine

/// Every input in `Tests/Regressions/` (found by the fuzz targets in `fuzz/`) goes through the
/// paths that once failed on it: header reader, decoder, renderer, and for protocol inputs the
/// frame and message decoders. None may crash or hang; known files must end as recorded below.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Regressions")

    /// Expected outcome of the decoder per file: nil = decodes, else the error code.
    static let expected: [String: ErrorCode?] = [
        "png-text-chunk-length-2gb.png": .corruptImage,
    ]

    /// The single allocation any regression input may cause, in virtual memory (VmPeak).
    static let maxVirtualGrowth = 1 << 30

    static var files: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// VmPeak of this process, in bytes (a huge malloc raises it even if no page is touched).
    static func virtualPeak() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmPeak:") }),
              let kb = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb * 1024
    }

    /// The header reader's verdict, then a full decode and a small render: the decoder runs even
    /// when the header reader refuses the file (with the header it would have), because a file
    /// whose damage lies past the header reaches the decoder in the daemon.
    /// - Returns: the header reader's result and the decoder's.
    static func decodeImage(_ bytes: [UInt8], name: String) -> (header: Result<ImageHeader, PickerError>,
                                                                decode: Result<PixelSize, PickerError>) {
        let header: Result<ImageHeader, PickerError>
        do throws(PickerError) {
            header = .success(try ImageHeaderReader.read(bytes: bytes, name: name))
        } catch {
            header = .failure(error)
        }
        guard let format = FormatSniffer.sniff(bytes) else { return (header, header.map { _ in PixelSize(width: 0, height: 0) }) }
        // Without a header: size unknown (0x0), which the decoder and renderer must handle.
        let usable = (try? header.get()) ?? ImageHeader(format: format, storedWidth: 0, storedHeight: 0, orientation: .up)
        do throws(PickerError) {
            let full = try ImageDecoder.decode(bytes, header: usable, photoName: name, storedTarget: nil,
                                               maxPixels: 200_000_000)
            _ = try ImageRenderer.fittedUpright(data: bytes, header: usable, photoName: name,
                                                fit: FitTarget(maxWidth: 64, maxHeight: 48), maxPixels: 200_000_000)
            return (header, .success(full.size))
        } catch {
            return (header, .failure(error))
        }
    }

    /// Frame and message inputs, laid out as the fuzz targets read them.
    static func decodeProtocol(_ bytes: [UInt8], target: String) {
        guard let first = bytes.first else { return }
        if target == "message", bytes.count >= 5 {
            let id = UInt32(bytes[1]) << 24 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 8 | UInt32(bytes[4])
            let frame = Frame(type: first, requestID: id, payload: Array(bytes[5...]))
            _ = try? Request(frame: frame)
            _ = try? Reply(frame: frame)
            return
        }
        var decoder = FrameDecoder(maxFrameLength: first & 0x80 != 0 ? 64 : ProtocolLimits.maxRequestFrame)
        decoder.append(bytes.dropFirst())
        while let frame = try? decoder.next() {
            _ = try? Request(frame: frame)
            _ = try? Reply(frame: frame)
        }
    }

    @Test func regressionInputsAreRefusedCleanlyWithBoundedMemory() throws {
        let files = Self.files
        #expect(!files.isEmpty, "no files in \(Self.directory.path)")
        for url in files {
            let name = url.lastPathComponent
            let bytes = [UInt8](try Data(contentsOf: url))
            let target = String(name.prefix { $0 != "-" })
            let before = Self.virtualPeak()
            let start = ContinuousClock.now
            if target == "frame" || target == "message" {
                Self.decodeProtocol(bytes, target: target)
                #expect(ContinuousClock.now - start < .seconds(5), "\(name) took too long")
                continue
            }
            let (header, outcome) = Self.decodeImage(bytes, name: name)
            if case .failure(let e) = header {
                #expect(e.message.contains(name), "\(name): the header error must name the photo: \(e.message)")
            }
            #expect(ContinuousClock.now - start < .seconds(10), "\(name) took too long")
            let growth = Self.virtualPeak() - before
            #expect(growth < Self.maxVirtualGrowth, "\(name) raised VmPeak by \(growth >> 20) MiB")
            if case .failure(let e) = outcome {
                #expect(e.message.contains(name), "\(name): the error must name the photo: \(e.message)")
            }
            if let expectation = Self.expected[name] {
                switch (outcome, expectation) {
                case (.success, nil): break
                case (.failure(let e), let code?):
                    #expect(e.code == code, "\(name): \(e.code) \(e.message)")
                default:
                    Issue.record("\(name): got \(outcome), expected \(String(describing: expectation))")
                }
            }
        }
    }
}
