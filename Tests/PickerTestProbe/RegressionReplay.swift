import Foundation
import PickerEngine
import PickerProtocol

/// One fuzz regression input through the paths that once failed on it, in this process alone,
/// so that the VmPeak growth it reports is that input's.
enum RegressionReplay {
    /// Report keys: `target`, `vmPeakGrowth` (bytes), and for images `header` / `decode`
    /// (`"ok"` or the error code's name), `headerMessage` / `decodeMessage`, `decodedSize`.
    static func run(_ bytes: [UInt8], name: String) -> [String: Any] {
        let target = String(name.prefix { $0 != "-" })
        let before = virtualPeak()
        var report: [String: Any] = ["target": target]
        if target == "frame" || target == "message" {
            decodeProtocol(bytes, target: target)
        } else {
            decodeImage(bytes, name: name, into: &report)
        }
        report["vmPeakGrowth"] = virtualPeak() - before
        return report
    }

    /// VmPeak of this process, in bytes (a huge malloc raises it even if no page is touched).
    static func virtualPeak() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmPeak:") }),
              let kb = Int(line.split(separator: " ").dropFirst().first ?? "") else { return -1 }
        return kb * 1024
    }

    /// The header reader's verdict, then a full decode and a small render: the decoder runs even
    /// when the header reader refuses the file (with the header it would have), because a file
    /// whose damage lies past the header reaches the decoder in the daemon.
    static func decodeImage(_ bytes: [UInt8], name: String, into report: inout [String: Any]) {
        var header: ImageHeader?
        do throws(PickerError) {
            header = try ImageHeaderReader.read(bytes: bytes, name: name)
            report["header"] = "ok"
        } catch {
            report["header"] = "\(error.code)"
            report["headerMessage"] = error.message
        }
        guard let format = FormatSniffer.sniff(bytes) else {
            report["decode"] = "not-an-image"
            return
        }
        // Without a header: size unknown (0x0), which the decoder and renderer must handle.
        let usable = header ?? ImageHeader(format: format, storedWidth: 0, storedHeight: 0, orientation: .up)
        do throws(PickerError) {
            let full = try ImageDecoder.decode(bytes, header: usable, photoName: name, storedTarget: nil,
                                               maxPixels: 200_000_000)
            _ = try ImageRenderer.fittedUpright(data: bytes, header: usable, photoName: name,
                                                fit: FitTarget(maxWidth: 64, maxHeight: 48), maxPixels: 200_000_000)
            report["decode"] = "ok"
            report["decodedSize"] = "\(full.width)x\(full.height)"
        } catch {
            report["decode"] = "\(error.code)"
            report["decodeMessage"] = error.message
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
}
