import Testing
@testable import PickerEngine

@Suite struct ShrinkFactorTests {
    @Test func cameraPhotoToPaneDecodesAtQuarterScale() {
        // 6000x4000 -> 600x400: 1/4 gives 1500x1000 (>= 1200x800), 1/8 would give 750x500.
        #expect(ShrinkFactor.jpegDenominator(stored: PixelSize(width: 6000, height: 4000),
                                             target: PixelSize(width: 600, height: 400)) == 4)
        #expect(ShrinkFactor.jpegDenominator(stored: PixelSize(width: 5760, height: 3840),
                                             target: PixelSize(width: 600, height: 400)) == 4)
    }

    @Test func tinyTargetUsesEighthScale() {
        #expect(ShrinkFactor.jpegDenominator(stored: PixelSize(width: 6000, height: 4000),
                                             target: PixelSize(width: 100, height: 66)) == 8)
    }

    @Test func targetLargerThanHalfTheImageDecodesAtFullSize() {
        #expect(ShrinkFactor.jpegDenominator(stored: PixelSize(width: 1800, height: 1200),
                                             target: PixelSize(width: 1000, height: 666)) == 1)
        #expect(ShrinkFactor.jpegDenominator(stored: PixelSize(width: 100, height: 100),
                                             target: PixelSize(width: 400, height: 400)) == 1)
    }

    @Test func scaledSizeRoundsUpAndIsNeverZero() {
        #expect(ShrinkFactor.scaledSize(PixelSize(width: 1, height: 1), denominator: 8) == PixelSize(width: 1, height: 1))
        #expect(ShrinkFactor.scaledSize(PixelSize(width: 227, height: 149), denominator: 8) == PixelSize(width: 29, height: 19))
        #expect(ShrinkFactor.scaledSize(PixelSize(width: 0, height: 0), denominator: 2) == PixelSize(width: 1, height: 1))
    }

    @Test func sweepPicksTheLargestDenominatorThatLeavesTwiceTheTarget() {
        let sides = [1, 7, 15, 100, 333, 640, 1023, 1800, 4000, 5760, 8192]
        let targets = [1, 16, 50, 100, 300, 600, 1000, 2000]
        for sw in sides {
            for sh in [sw, max(1, sw / 3), sw * 2] {
                for tw in targets {
                    for th in [tw, max(1, tw / 2)] {
                        let stored = PixelSize(width: sw, height: sh)
                        let target = PixelSize(width: tw, height: th)
                        let d = ShrinkFactor.jpegDenominator(stored: stored, target: target)
                        #expect([1, 2, 4, 8].contains(d))
                        let s = ShrinkFactor.scaledSize(stored, denominator: d)
                        #expect(s.width >= 1 && s.height >= 1)
                        if d > 1 {
                            #expect(s.width >= 2 * tw && s.height >= 2 * th, "\(stored) -> \(target): 1/\(d)")
                        }
                        if d < 8 {
                            let next = ShrinkFactor.scaledSize(stored, denominator: d * 2)
                            #expect(!(next.width >= 2 * tw && next.height >= 2 * th),
                                    "\(stored) -> \(target): 1/\(d * 2) would also do")
                        }
                    }
                }
            }
        }
    }
}
