import CPickerSandbox
import Glibc
import PickerProtocol
import PickerSystem

/// A worker's answer read top to bottom, a band of rows at a time, for an encoder that streams
/// rows (PNG): the daemon holds one band (~1 MiB) instead of the whole picture, and each band's
/// memory in the memfd is freed once the encoder has moved past it. A 4000x2666 get-image held
/// its 32 MB of pixels twice for a moment (memfd and copy) and once while it was encoded.
public final class SealedPixelRows {
    public let width: Int
    public let height: Int
    public let channels: Int
    private let fd: Int32
    private let stride: Int
    private let bandRows: Int
    private let band: UnsafeMutableRawBufferPointer
    /// The first row the band holds; -1 before the first read.
    private var bandStart = -1
    /// Why a row could not be had (the encoder then stops), for the error the caller throws.
    public private(set) var failure: SystemError?

    /// The band a row source holds at most, unless one row is larger.
    static let bandBytes = 1 << 20

    /// Takes `fd`, already checked (`SealedPixels.check`), and closes it when done.
    init(fd: Int32, width: Int, height: Int, channels: Int) {
        self.fd = fd
        self.width = width
        self.height = height
        self.channels = channels
        stride = width * channels
        bandRows = max(1, min(height, Self.bandBytes / max(1, stride)))
        band = .allocate(byteCount: bandRows * stride, alignment: 16)
    }

    deinit {
        band.deallocate()
        FileSystem.close(fd)
    }

    /// Row `y`, valid until the next call. nil for a row before the current band (bands passed are
    /// freed, so they would read as zeros) and, with `failure` set, when the memfd cannot be read.
    public func row(_ y: Int) -> UnsafePointer<UInt8>? {
        guard y >= max(0, bandStart), y < height, failure == nil else { return nil }
        if bandStart < 0 || y >= bandStart + bandRows {
            guard readBand(from: y) else { return nil }
        }
        guard let base = band.baseAddress else { return nil }
        return UnsafePointer(base.assumingMemoryBound(to: UInt8.self) + (y - bandStart) * stride)
    }

    /// Every row at once, as a picture (for encoders that need it whole); before any `row`.
    func readAll() throws(PickerError) -> PixelImage {
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try FileSystem.read(fd, at: 0, count: stride * height)
        } catch {
            throw PickerError(.internal, "the decoder's pixels could not be read: \(error)")
        }
        return try PixelImage.checked(width: width, height: height, channels: channels, pixels: bytes)
    }

    private func readBand(from y: Int) -> Bool {
        if bandStart >= 0 {
            // The band passed is encoded: give its memory back (a hole in a memfd reads as zeros).
            _ = pk_memfd_release(fd, off_t(bandStart * stride), off_t(bandRows * stride))
        }
        let rows = min(bandRows, height - y)
        do throws(SystemError) {
            let want = UnsafeMutableRawBufferPointer(rebasing: band[0..<(rows * stride)])
            let got = try FileSystem.read(fd, at: y * stride, into: want)
            guard got == want.count else { throw SystemError("pread", Errno(rawValue: EIO)) }
        } catch {
            failure = error
            return false
        }
        bandStart = y
        return true
    }
}
