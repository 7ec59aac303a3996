import Foundation
import Glibc
import PickerProtocol
import PickerSystem
import Testing
@testable import PickerEngine

/// A worker's pixels streamed out of their memfd into a PNG (`SealedPixelRows`, `ImageEncoder`):
/// the same bytes as encoding the whole picture, the memfd's memory given back band by band, and
/// a memfd that cannot be read is an error, not a picture.
@Suite struct SealedPixelRowsTests {
    func noise(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    func rows(_ image: PixelImage) throws -> SealedPixelRows {
        let fd = try SealedPixels.make(image.pixels)
        return try SandboxedDecoder.pixels(fd, width: image.width, height: image.height, channels: image.channels)
    }

    /// Bytes of the memfd backed by memory (`st_blocks`), in bytes.
    func residentBytes(_ fd: Int32) throws -> Int {
        var st = stat()
        #expect(fstat(fd, &st) == 0)
        return Int(st.st_blocks) * 512
    }

    /// Sizes from one band to several, an odd last band, RGB and RGBA: the streamed PNG is the PNG
    /// of the whole picture, byte for byte.
    @Test(arguments: [(700, 600, 3), (1500, 1001, 4), (4000, 300, 3)])
    func aStreamedPNGIsThePNGOfTheWholePicture(width: Int, height: Int, channels: Int) throws {
        let image = syntheticPicture(width, height, channels, noise(width * height * channels))
        let spec = OutputSpec(format: .png, quality: 100)
        let whole = try ImageEncoder.encode(image, output: spec)
        let streamed = try ImageEncoder.encode(.rows(try rows(image)), output: spec)
        let same = streamed.bytes == whole.bytes  // a Bool: Testing would diff two failing buffers for minutes
        #expect(same, "streamed \(streamed.bytes.count) bytes, whole \(whole.bytes.count)")
        #expect(streamed.width == width && streamed.height == height)
    }

    /// Each band passed is punched out of the memfd: after a whole picture has been read, at most one
    /// band of it is still in memory; a row from a band passed is refused, never read as zeros.
    @Test func theBandsPassedAreGivenBack() throws {
        let (width, height) = (2000, 1500)
        let stride = width * 3
        let image = syntheticPicture(width, height, 3, noise(width * height * 3))
        let fd = try SealedPixels.make(image.pixels)
        let watched = dup(fd)
        defer { FileSystem.close(watched) }
        let before = try residentBytes(watched)
        #expect(before >= image.pixels.count)
        let source = try SandboxedDecoder.pixels(fd, width: width, height: height, channels: 3)
        var same = true
        for y in 0..<height {
            let row = try #require(source.row(y))
            same = same && Array(UnsafeBufferPointer(start: row, count: stride)) == Array(image.pixels[y * stride ..< (y + 1) * stride])
        }
        #expect(same, "every row as the worker wrote it")
        #expect(try residentBytes(watched) <= SealedPixelRows.bandBytes + 4096, "was \(before) bytes")
        #expect(source.row(0) == nil, "row 0 was freed with its band")
    }

    /// A descriptor that reads short (a memfd is never short; a pipe stands in) stops the encoder with
    /// an error naming why, and no PNG.
    @Test func rowsThatCannotBeReadAreAnError() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        FileSystem.close(ends[1])
        let source = SealedPixelRows(fd: ends[0], width: 1024, height: 1024, channels: 3)
        #expect(throws: PickerError.self) {
            _ = try ImageEncoder.encode(.rows(source), output: OutputSpec(format: .png, quality: 100))
        }
        #expect(source.failure != nil)
    }
}
