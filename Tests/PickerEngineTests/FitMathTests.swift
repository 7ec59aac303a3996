import Testing
@testable import PickerEngine

@Suite struct FitMathTests {
    @Test func landscapeIntoMatchingBoxIsExact() {
        #expect(FitMath.fit(width: 6000, height: 4000, maxWidth: 600, maxHeight: 400, allowUpscale: false)
                == PixelSize(width: 600, height: 400))
        #expect(FitMath.fit(width: 1800, height: 1200, maxWidth: 300, maxHeight: 200, allowUpscale: false)
                == PixelSize(width: 300, height: 200))
    }

    @Test func widthOnlyBoxBoundsTheWidth() {
        #expect(FitMath.fit(width: 6000, height: 4000, maxWidth: 600, maxHeight: nil, allowUpscale: false)
                == PixelSize(width: 600, height: 400))
        #expect(FitMath.fit(width: 1000, height: 5000, maxWidth: 200, maxHeight: nil, allowUpscale: false)
                == PixelSize(width: 200, height: 1000))
    }

    @Test func portraitIntoLandscapeBoxIsHeightBoundAndRoundedDown() {
        // 3264 * 400 / 4928 = 264.9 -> 264
        #expect(FitMath.fit(width: 3264, height: 4928, maxWidth: 600, maxHeight: 400, allowUpscale: false)
                == PixelSize(width: 264, height: 400))
    }

    @Test func smallPictureIsNotUpscaledUnlessAllowed() {
        #expect(FitMath.fit(width: 100, height: 50, maxWidth: 400, maxHeight: 400, allowUpscale: false)
                == PixelSize(width: 100, height: 50))
        #expect(FitMath.fit(width: 100, height: 50, maxWidth: 400, maxHeight: 400, allowUpscale: true)
                == PixelSize(width: 400, height: 200))
        #expect(FitMath.fit(width: 100, height: 50, maxWidth: 1920, maxHeight: 1080, allowUpscale: true)
                == PixelSize(width: 1920, height: 960))
    }

    @Test func extremeAspectNeverGivesAZeroSide() {
        #expect(FitMath.fit(width: 10000, height: 1, maxWidth: 100, maxHeight: 100, allowUpscale: false)
                == PixelSize(width: 100, height: 1))
        #expect(FitMath.fit(width: 1, height: 65000, maxWidth: 100, maxHeight: 16, allowUpscale: false)
                == PixelSize(width: 1, height: 16))
    }

    @Test func sweepFitsInsideTheBoxKeepsAspectAndNeverUpscales() {
        let sizes = [1, 2, 15, 33, 100, 227, 640, 1200, 1800, 4928, 65535]
        let boxes = [16, 100, 199, 300, 600, 1080, 1920, 8192]
        for w in sizes {
            for h in sizes {
                for bw in boxes {
                    for bh in [Optional(bw), Optional(bw / 2 + 16), nil] {
                        for up in [false, true] {
                            let r = FitMath.fit(width: w, height: h, maxWidth: bw, maxHeight: bh, allowUpscale: up)
                            #expect(r.width >= 1 && r.height >= 1)
                            #expect(r.width <= max(bw, up ? bw : w))
                            if let bh { #expect(r.height <= max(bh, up ? bh : h)) }
                            if !up { #expect(r.width <= w && r.height <= h) }
                            let fits = w <= bw && (bh.map { h <= $0 } ?? true)
                            if !up && fits { #expect(r == PixelSize(width: w, height: h)) }
                            // One side touches the box whenever the picture was scaled.
                            if up || !fits {
                                #expect(r.width == bw || r.height == bh, "\(w)x\(h) in \(bw)x\(String(describing: bh))")
                                // Aspect kept: the rounded-down side is within 1 px of exact.
                                let exactH = Double(h) * Double(r.width) / Double(w)
                                let exactW = Double(w) * Double(r.height) / Double(h)
                                #expect(abs(Double(r.height) - exactH) <= 1 || abs(Double(r.width) - exactW) <= 1)
                            }
                        }
                    }
                }
            }
        }
    }

    @Test func coverScalesToFillTheBoxAndCentresTheCrop() {
        let box = PixelSize(width: 100, height: 100)
        let (scaled, crop) = FitMath.cover(width: 6000, height: 4000, box: box)
        #expect(scaled == PixelSize(width: 150, height: 100))
        #expect(crop == PixelRect(x: 25, y: 0, width: 100, height: 100))
        for (w, h) in [(1, 1), (3, 1000), (1000, 3), (640, 480), (100, 100), (37, 91)] {
            for b in [PixelSize(width: 100, height: 100), PixelSize(width: 160, height: 90), PixelSize(width: 7, height: 300)] {
                let (s, c) = FitMath.cover(width: w, height: h, box: b)
                #expect(s.width >= b.width && s.height >= b.height)
                #expect(s.width == b.width || s.height == b.height)
                #expect(c.size == b && c.x >= 0 && c.y >= 0 && c.x + c.width <= s.width && c.y + c.height <= s.height)
                let src = FitMath.coverSourceCrop(width: w, height: h, box: b)
                #expect(src.x >= 0 && src.y >= 0 && src.width >= 1 && src.height >= 1)
                #expect(src.x + src.width <= w && src.y + src.height <= h)
                #expect(src.width == w || src.height == h)
            }
        }
    }

    @Test func centredPlacementLetterboxes() {
        #expect(FitMath.centred(PixelSize(width: 1620, height: 1080), in: PixelSize(width: 1920, height: 1080))
                == PixelRect(x: 150, y: 0, width: 1620, height: 1080))
    }
}
