import CPickerCodecs
import Testing
import PickerProtocol
@testable import PickerEngine

/// Checked construction: a picture's bytes always match its sizes, and the C kernels check the
/// buffer lengths they are given instead of trusting the sizes.
@Suite struct PixelImageTests {
    @Test func pictureIsRefusedWhenItsBytesDoNotMatchItsSizes() {
        #expect(PixelImage(width: 2, height: 2, channels: 3, pixels: [UInt8](repeating: 0, count: 12)) != nil)
        #expect(PixelImage(width: 2, height: 2, channels: 3, pixels: [UInt8](repeating: 0, count: 11)) == nil)
        #expect(PixelImage(width: 2, height: 2, channels: 3, pixels: [UInt8](repeating: 0, count: 13)) == nil)
        #expect(PixelImage(width: 2, height: 2, channels: 2, pixels: [UInt8](repeating: 0, count: 8)) == nil)
        #expect(PixelImage(width: 0, height: 5, channels: 3, pixels: []) == nil)
        #expect(PixelImage(width: Int.max, height: 2, channels: 3, pixels: [0, 0, 0]) == nil, "overflowing sizes")
    }

    @Test func kernelsRefuseBuffersShorterThanTheirSizes() {
        let w: Int32 = 8, h: Int32 = 6
        let rgba = [UInt8](repeating: 128, count: Int(w * h) * 4)
        var out: UnsafeMutablePointer<UInt8>? = nil
        #expect(pk_resample(rgba, rgba.count - 1, w, h, 4, 0, 0, w, h, 3, 2, &out) == Int32(PK_INVALID.rawValue))
        #expect(out == nil)
        var ow: Int32 = 0, oh: Int32 = 0
        #expect(pk_orient(rgba, rgba.count - 1, w, h, 4, 6, &out, &ow, &oh) == Int32(PK_INVALID.rawValue))
        #expect(pk_flatten(rgba, rgba.count - 1, w, h, 0, 0, 0, &out) == Int32(PK_INVALID.rawValue))
        // With the right length they work (the test can tell the difference).
        #expect(pk_resample(rgba, rgba.count, w, h, 4, 0, 0, w, h, 3, 2, &out) == Int32(PK_OK.rawValue))
        pk_free(out)
    }

    @Test func drawingOntoAShortCanvasChangesNothing() {
        var canvas = [UInt8](repeating: 7, count: 4 * 4 * 3)
        let dot: [UInt8] = [200, 100, 50]
        canvas.withUnsafeMutableBufferPointer { pk_draw_onto($0.baseAddress, $0.count - 1, 4, 4, dot, 3, 1, 1, 3, 0, 0) }
        #expect(canvas.allSatisfy { $0 == 7 })
        canvas.withUnsafeMutableBufferPointer { pk_fill_rgb($0.baseAddress, $0.count - 1, 4, 4, 1, 2, 3) }
        #expect(canvas.allSatisfy { $0 == 7 })
        canvas.withUnsafeMutableBufferPointer { pk_draw_onto($0.baseAddress, $0.count, 4, 4, dot, 3, 1, 1, 3, 0, 0) }
        #expect(Array(canvas.prefix(3)) == dot)
    }

    @Test func encodersRefuseBuffersShorterThanTheirSizes() {
        let rgb = [UInt8](repeating: 90, count: 16 * 16 * 3)
        var out: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        var message = [CChar](repeating: 0, count: Int(PK_MSG_LEN))
        let invalid = Int32(PK_INVALID.rawValue)
        #expect(pk_png_encode(rgb, rgb.count - 1, 16, 16, 3, 1, &out, &length, &message) == invalid)
        #expect(pk_jpeg_encode(rgb, rgb.count - 1, 16, 16, 3, 80, &out, &length, &message) == invalid)
        #expect(pk_webp_encode(rgb, rgb.count - 1, 16, 16, 3, 80, &out, &length, &message) == invalid)
        #expect(pk_png_encode_text(rgb, rgb.count - 1, 16, 16, 3, 1, nil, 0, &out, &length, &message) == invalid)
        #expect(out == nil)
        #expect(pk_png_encode(rgb, rgb.count, 16, 16, 3, 1, &out, &length, &message) == Int32(PK_OK.rawValue))
        pk_free(out)
    }
}
