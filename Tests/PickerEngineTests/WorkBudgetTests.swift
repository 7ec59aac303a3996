import Dispatch
import Glibc
@testable import PickerEngine
import PickerProtocol
import Synchronization
import Testing

/// The shared byte budget for image work, and the estimates that reserve from it.
@Suite struct WorkBudgetTests {
    @Test func aJobLargerThanTheWholeBudgetIsRefusedWithoutWaiting() {
        let budget = WorkBudget(capacityBytes: 1000)
        #expect(throws: PickerError.self) {
            try budget.withReservation(1001, for: "big.jpg") { () throws(PickerError) in Issue.record("ran") }
        }
        do {
            try budget.withReservation(1001, for: "big.jpg") { () throws(PickerError) in }
        } catch {
            #expect(error.code == .imageTooLarge)
            #expect(error.message.contains("big.jpg") && error.message.contains("--memory-mb"))
        }
        #expect(budget.reservedBytes == 0)
    }

    /// A saturated estimate (`PixelCount` gives Int.max for an absurd declared size) is refused
    /// with its message, not an overflow trap while rounding it to MiB (found by the "library" fuzz
    /// target with the header check switched off).
    @Test func aSaturatedEstimateIsRefusedWithoutTrapping() {
        let budget = WorkBudget(capacityBytes: 1 << 30)
        do throws(PickerError) {
            try budget.withReservation(Int.max, for: "huge.png") { () throws(PickerError) in }
            Issue.record("an Int.max reservation was granted")
        } catch {
            #expect(error.code == .imageTooLarge && error.message.hasPrefix("huge.png: this job needs about"), "\(error.message)")
        }
    }

    @Test func aReservationIsGivenBackWhenTheJobThrows() {
        let budget = WorkBudget(capacityBytes: 1000)
        #expect(throws: PickerError.self) {
            try budget.withReservation(800, for: "x") { () throws(PickerError) in
                #expect(budget.reservedBytes == 800)
                throw PickerError(.corruptImage, "x: broken")
            }
        }
        #expect(budget.reservedBytes == 0)
        // The whole budget is free again.
        let ran = (try? budget.withReservation(1000, for: "y") { () throws(PickerError) in true }) ?? false
        #expect(ran)
    }

    @Test func aJobThatDoesNotFitRunsOnlyAfterTheHolderFinished() {
        let budget = WorkBudget(capacityBytes: 1000)
        let firstFinished = Atomic<Bool>(false)
        let secondSawFirstFinished = Atomic<Bool>(false)
        let group = DispatchGroup()
        _ = try? budget.withReservation(700, for: "first") { () throws(PickerError) in
            DispatchQueue.global().async(group: group) {
                _ = try? budget.withReservation(700, for: "second") { () throws(PickerError) in
                    secondSawFirstFinished.store(firstFinished.load(ordering: .sequentiallyConsistent),
                                                 ordering: .sequentiallyConsistent)
                }
            }
            // Give the second job time to reach the budget and wait there.
            usleep(100_000)
            firstFinished.store(true, ordering: .sequentiallyConsistent)
        }
        group.wait()
        let sawIt = secondSawFirstFinished.load(ordering: .sequentiallyConsistent)
        #expect(sawIt)
        #expect(budget.reservedBytes == 0)
    }

    @Test func aSmallJobPassesALargeWaitingOneWithoutTakingItsRoom() {
        let budget = WorkBudget(capacityBytes: 1600)  // small jobs: up to 100 bytes
        let group = DispatchGroup()
        let smallDone = DispatchSemaphore(value: 0)
        let smallRanWhileLargeWaited = Atomic<Bool>(false)
        var secondSmallPassed = false
        _ = try? budget.withReservation(1000, for: "holder") { () throws(PickerError) in
            DispatchQueue.global().async(group: group) {
                _ = try? budget.withReservation(1000, for: "large") { () throws(PickerError) in }
            }
            for _ in 0..<1000 where budget.waitingJobs == 0 { usleep(1000) }
            // 1000 held + 1000 waiting: a 100-byte job fits in the 600 free and in what the
            // waiter leaves (1600 − 1000), so it runs now.
            DispatchQueue.global().async {
                _ = try? budget.withReservation(100, for: "small") { () throws(PickerError) in
                    smallRanWhileLargeWaited.store(budget.waitingJobs == 1, ordering: .sequentiallyConsistent)
                }
                smallDone.signal()
            }
            secondSmallPassed = smallDone.wait(timeout: .now() + 30) == .success
        }
        group.wait()
        #expect(secondSmallPassed)
        let sawWaiter = smallRanWhileLargeWaited.load(ordering: .sequentiallyConsistent)
        #expect(sawWaiter)
        #expect(budget.reservedBytes == 0)
    }

    @Test func estimatesFollowTheWorkAndCountTheFile() {
        let camera = ImageHeader(format: .jpeg, storedWidth: 5760, storedHeight: 3840, orientation: .up)
        let small = WorkEstimate.render(header: camera, fileBytes: 2_000_000,
                                        fit: FitTarget(maxWidth: 1000, maxHeight: 1000), output: .png, maxPixels: 200_000_000)
        let preview = WorkEstimate.preview(header: camera, fileBytes: 2_000_000, width: 8192, height: 8192,
                                           output: .png, maxPixels: 200_000_000)
        // 1000×667 RGB twice (picture, PNG) plus rows and the file: a few MiB, not the 22 MP picture.
        #expect(small < 16 << 20, "\(small)")
        // 8192×5461 RGB picture, 8192² canvas and its PNG: about 540 MiB.
        #expect(preview > 500 << 20 && preview < 600 << 20, "\(preview)")
        let bigFile = WorkEstimate.render(header: camera, fileBytes: 90_000_000,
                                          fit: FitTarget(maxWidth: 1000, maxHeight: 1000), output: .png, maxPixels: 200_000_000)
        #expect(bigFile - small == 88_000_000)
    }
}
