import Testing
import PickerProtocol
@testable import PickerEngine

/// The whole pipeline on synthetic files made by our own encoders
/// (so it runs without the corpus).
@Suite struct ImageRendererTests {
    /// A w x h picture: left half red, right half blue, top-left 8x8 corner green.
    func picture(_ w: Int, _ h: Int, alpha: Bool = false) -> PixelImage {
        let c = alpha ? 4 : 3
        var bytes = [UInt8](repeating: 0, count: w * h * c)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * c
                if x < 8 && y < 8 { bytes[i + 1] = 255 } else if x < w / 2 { bytes[i] = 255 } else { bytes[i + 2] = 255 }
                if alpha { bytes[i + 3] = 255 }
            }
        }
        return syntheticPicture(w, h, c, bytes)
    }

    func file(_ format: ImageFormat, _ w: Int, _ h: Int) throws -> [UInt8] {
        try ImageEncoder.encode(picture(w, h), as: format, quality: 95)
    }

    @Test(arguments: ImageFormat.allCases.filter { !$0.isTerminalText })
    func renderGivesExactlyTheFittedSizeForEveryOrientation(format: ImageFormat) throws {
        let data = try file(format, 640, 400)
        for value in 1...8 {
            let orientation = Orientation(exifValue: value)
            let header = ImageHeader(format: PhotoFormat(format), storedWidth: 640, storedHeight: 400, orientation: orientation)
            for (bw, bh) in [(300, 200), (100, Optional<Int>.none), (64, 64), (1000, 1000), (17, 5)] {
                let fit = FitTarget(maxWidth: bw, maxHeight: bh)
                let out = try ImageRenderer.render(data: data, header: header, photoName: "synthetic.\(format.optionName)",
                                                   fit: fit, output: .png, maxPixels: 1 << 30)
                let expected = fit.fittedSize(for: PixelSize(width: header.displayWidth, height: header.displayHeight))
                #expect(out.width == expected.width && out.height == expected.height,
                        "\(format) orientation \(value) into \(bw)x\(String(describing: bh))")
                let back = try PNGDecoder.decode(out.bytes, maxPixels: 1 << 30, photoName: "out.png")
                #expect(back.size == expected)
            }
        }
    }

    @Test func upscalingHappensOnlyWhenAllowed() throws {
        let data = try file(.png, 40, 20)
        let header = ImageHeader(format: .png, storedWidth: 40, storedHeight: 20)
        let kept = try ImageRenderer.fittedUpright(data: data, header: header, photoName: "small.png",
                                                   fit: FitTarget(maxWidth: 400, maxHeight: 400), maxPixels: 1 << 30)
        #expect(kept.size == PixelSize(width: 40, height: 20))
        let grown = try ImageRenderer.fittedUpright(data: data, header: header, photoName: "small.png",
                                                    fit: FitTarget(maxWidth: 400, maxHeight: 400, allowUpscale: true),
                                                    maxPixels: 1 << 30)
        #expect(grown.size == PixelSize(width: 400, height: 200))
    }

    @Test func decodeUprightShrinksOnLoadButKeepsTwiceTheTarget() throws {
        let data = try file(.jpeg, 1600, 800)
        let header = ImageHeader(format: .jpeg, storedWidth: 1600, storedHeight: 800, orientation: .right)
        // Display is 800x1600; asking for at least 100x200 allows 1/4 (400x200 stored -> 200x400 upright).
        let small = try ImageRenderer.decodeUpright(data: data, header: header, photoName: "wide.jpg",
                                                    minimumDisplaySize: (100, 200), maxPixels: 1 << 30)
        #expect(small.size == PixelSize(width: 200, height: 400))
        let full = try ImageRenderer.decodeUpright(data: data, header: header, photoName: "wide.jpg",
                                                   minimumDisplaySize: nil, maxPixels: 1 << 30)
        #expect(full.size == PixelSize(width: 800, height: 1600))
    }

    @Test func orientationMovesTheMarkedCornerOnTheRenderedPicture() throws {
        // Green marks the stored top-left corner; with orientation 6 (rotate 90 CW)
        // it must end up top-right.
        let data = try file(.png, 64, 32)
        let header = ImageHeader(format: .png, storedWidth: 64, storedHeight: 32, orientation: .right)
        let up = try ImageRenderer.fittedUpright(data: data, header: header, photoName: "mark.png",
                                                 fit: FitTarget(maxWidth: 32, maxHeight: 64), maxPixels: 1 << 30)
        #expect(up.size == PixelSize(width: 32, height: 64))
        let topRight = (0 * up.width + (up.width - 2)) * 3
        #expect(up.pixels[topRight + 1] > 200 && up.pixels[topRight] < 60)
    }

    @Test func webpShrinkOnLoadStillGivesTheExactSize() throws {
        let data = try file(.webp, 1000, 600)
        let header = ImageHeader(format: .webp, storedWidth: 1000, storedHeight: 600)
        let out = try ImageRenderer.fittedUpright(data: data, header: header, photoName: "big.webp",
                                                  fit: FitTarget(maxWidth: 100, maxHeight: 100), maxPixels: 1 << 30)
        #expect(out.size == PixelSize(width: 100, height: 60))
        // Left half red, right half blue survives the scaled decode.
        let left = (30 * out.width + 25) * out.channels, right = (30 * out.width + 75) * out.channels
        #expect(out.pixels[left] > 200 && out.pixels[right + 2] > 200)
    }

    @Test func headerWithoutSizeFallsBackToTheDecodedSize() throws {
        let data = try file(.jpeg, 300, 100)
        let header = ImageHeader(format: .jpeg, storedWidth: 0, storedHeight: 0)
        let out = try ImageRenderer.fittedUpright(data: data, header: header, photoName: "nosize.jpg",
                                                  fit: FitTarget(maxWidth: 150, maxHeight: 150), maxPixels: 1 << 30)
        #expect(out.size == PixelSize(width: 150, height: 50))
    }

    @Test func errorsNameThePhotoAndCarryTheRightCode() {
        let truncated = (try? file(.jpeg, 200, 200)).map { Array($0.prefix($0.count / 2)) } ?? []
        let cases: [([UInt8], ImageFormat, ErrorCode)] = [
            (truncated, .jpeg, .corruptImage),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], .png, .corruptImage),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp, .corruptImage),
            ([], .jpeg, .corruptImage),
        ]
        for (data, format, code) in cases {
            let header = ImageHeader(format: PhotoFormat(format), storedWidth: 200, storedHeight: 200)
            do {
                _ = try ImageRenderer.render(data: data, header: header, photoName: "IMG_1.\(format.optionName)",
                                             fit: FitTarget(maxWidth: 50, maxHeight: 50), output: .png, maxPixels: 1 << 30)
                Issue.record("\(format) garbage decoded")
            } catch {
                #expect(error.code == code, "\(error.message)")
                #expect(error.message.hasPrefix("IMG_1.\(format.optionName): "), "\(error.message)")
            }
        }
    }

    @Test func truncatedJpegMessageSaysWhatHappened() throws {
        let data = try file(.jpeg, 256, 256)
        let header = ImageHeader(format: .jpeg, storedWidth: 256, storedHeight: 256)
        do {
            _ = try ImageRenderer.decodeUpright(data: Array(data.prefix(data.count * 2 / 3)), header: header,
                                                photoName: "IMG_1.jpg", minimumDisplaySize: nil, maxPixels: 1 << 30)
            Issue.record("truncated JPEG decoded")
        } catch {
            #expect(error.message == "IMG_1.jpg: corrupt JPEG data: Premature end of JPEG file")
        }
    }

    @Test func headerOverTheCapIsRefusedBeforeDecoding() {
        let header = ImageHeader(format: .png, storedWidth: 65536, storedHeight: 65536)
        do {
            _ = try ImageRenderer.render(data: [], header: header, photoName: "bomb.png",
                                         fit: FitTarget(maxWidth: 50, maxHeight: 50), output: .png,
                                         maxPixels: 200_000_000)
            Issue.record("bomb accepted")
        } catch {
            #expect(error.code == .imageTooLarge)
            #expect(error.message.hasPrefix("bomb.png: image too large: 65536x65536"))
        }
    }

    @Test func previewOnBlackCanvasReusesThePieces() throws {
        let data = try file(.png, 100, 50)
        let header = ImageHeader(format: .png, storedWidth: 100, storedHeight: 50)
        let canvasSize = PixelSize(width: 192, height: 108)
        let fitted = try ImageRenderer.fittedUpright(data: data, header: header, photoName: "p.png",
                                                     fit: FitTarget(maxWidth: 192, maxHeight: 108, allowUpscale: true),
                                                     maxPixels: 1 << 30)
        #expect(fitted.size == PixelSize(width: 192, height: 96))
        var canvas = try Compositor.canvas(canvasSize, colour: .black)
        let place = FitMath.centred(fitted.size, in: canvasSize)
        Compositor.draw(fitted, onto: &canvas, x: place.x, y: place.y)
        #expect(canvas.size == canvasSize)
        #expect(canvas.pixels[0...2].allSatisfy { $0 == 0 })          // letterbox row stays black
        let mid = (54 * 192 + 40) * 3
        #expect(canvas.pixels[mid] > 200)                               // picture (red half) drawn
    }

    @Test func thumbnailCropFillsTheCellFromTheCentre() throws {
        let source = picture(300, 100)
        let crop = FitMath.coverSourceCrop(width: 300, height: 100, box: PixelSize(width: 100, height: 100))
        #expect(crop == PixelRect(x: 100, y: 0, width: 100, height: 100))
        let cell = try Resampler.resample(source, to: PixelSize(width: 100, height: 100), crop: crop)
        #expect(cell.size == PixelSize(width: 100, height: 100))
        // Centre crop of red|blue straddles the split: left red, right blue.
        #expect(cell.pixels[(50 * 100 + 10) * 3] > 200 && cell.pixels[(50 * 100 + 90) * 3 + 2] > 200)
    }

    @Test func transparentPngFlattensOnlyForJpegOutput() throws {
        let clear = try PixelImage(width: 20, height: 20, channels: 4, filledWith: .black, alpha: 0)
        let data = try ImageEncoder.encode(clear, as: .png, quality: 100)
        let header = ImageHeader(format: .png, storedWidth: 20, storedHeight: 20)
        let png = try ImageRenderer.render(data: data, header: header, photoName: "clear.png",
                                           fit: FitTarget(maxWidth: 10, maxHeight: 10), output: .png, maxPixels: 1 << 30)
        let back = try PNGDecoder.decode(png.bytes, maxPixels: 1 << 30, photoName: "out.png")
        #expect(back.channels == 4 && back.pixels[3] == 0)
    }
}
