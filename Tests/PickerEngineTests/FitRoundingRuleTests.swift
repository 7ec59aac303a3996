import Testing
@testable import PickerEngine

/// PROTOCOL.md's "Fitted size" rule (issue 22 unclear point: rounding of fitted sizes), on cases
/// where rounding or the tie decides.
@Suite struct FitRoundingRuleTests {
    @Test(arguments: [
        (4032, 3024, 1000, 1000, 1000, 750),  // width-limited, exact
        (1001, 1000, 500, 500, 500, 499),     // 499.5 rounds down
        (3, 1000, 100, 10, 1, 10),            // 0.03 becomes 1, never 0
        (200, 100, 100, 50, 100, 50),         // a tie is width-limited (same result either way)
        (1000, 3000, 800, 600, 200, 600),     // height-limited
    ])
    func fittedSizeFollowsTheDocumentedFormula(_ c: (Int, Int, Int, Int, Int, Int)) {
        let fitted = FitMath.fit(width: c.0, height: c.1, maxWidth: c.2, maxHeight: c.3, allowUpscale: false)
        #expect(fitted == PixelSize(width: c.4, height: c.5))
    }

    @Test func withoutAPaneHeightOnlyTheWidthLimitsAndNothingIsUpscaled() {
        #expect(FitMath.fit(width: 4000, height: 9000, maxWidth: 800, maxHeight: nil, allowUpscale: false)
                == PixelSize(width: 800, height: 1800))
        #expect(FitMath.fit(width: 300, height: 200, maxWidth: 800, maxHeight: 600, allowUpscale: false)
                == PixelSize(width: 300, height: 200))
    }
}
