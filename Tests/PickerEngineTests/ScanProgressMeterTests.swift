import Foundation
import PickerEngine
import PickerProtocol
import Synchronization
import Testing

/// The scan's progress as `scanProgress` reports it, and the ticks that become events.
@Suite struct ScanProgressMeterTests {
    @Test func countsFilesAgainstTheEstimateThenTheWalksCount() {
        let meter = ScanProgressMeter()
        #expect(meter.current.state == .ready)
        meter.begin(expected: 500)
        #expect(meter.current == ScanProgress(state: .scanning, filesDone: 0, filesExpected: 500,
                                              elapsedMilliseconds: meter.current.elapsedMilliseconds))
        meter.walkFinished(files: 3)
        for _ in 0..<3 { meter.fileDone() }
        let during = meter.current
        #expect(during.state == .scanning && during.filesDone == 3 && during.filesExpected == 3)
        meter.end()
        #expect(meter.current.state == .ready && meter.current.filesDone == 3)
    }

    @Test func aScanShorterThanATickSendsNoTick() {
        let meter = ScanProgressMeter()
        let ticks = Mutex<[ScanProgress]>([])
        meter.onTick { p in ticks.withLock { $0.append(p) } }
        meter.begin(expected: 0)
        for _ in 0..<10 { meter.fileDone() }
        meter.end()
        usleep(400_000)  // past the first tick's time: the ended scan's timer must send nothing
        #expect(ticks.withLock { $0 }.isEmpty)
    }

    @Test func aLongScanTicksAndEndsWithReady() throws {
        let meter = ScanProgressMeter()
        let ticks = Mutex<[ScanProgress]>([])
        meter.onTick { p in ticks.withLock { $0.append(p) } }
        meter.begin(expected: 0)
        // Until two ticks came (about 0.5 s; up to 10 s on a loaded machine: a bound, not a timing check).
        let deadline = ContinuousClock.now + .seconds(10)
        while ticks.withLock({ $0.count }) < 2, ContinuousClock.now < deadline {
            meter.fileDone()
            usleep(1000)
        }
        meter.end()
        let seen = ticks.withLock { $0 }
        #expect(seen.count >= 2, "\(seen)")
        #expect(seen.dropLast().allSatisfy { $0.state == .scanning && $0.filesDone > 0 }, "\(seen)")
        #expect(seen.last?.state == .ready)
    }
}
