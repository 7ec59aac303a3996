import Testing
@testable import PickerEngine

@Suite("NaturalSort")
struct NaturalSortTests {
    @Test func digitRunsCompareByValue() {
        #expect(NaturalSort.areInIncreasingOrder("IMG_2", "IMG_10"))
        #expect(!NaturalSort.areInIncreasingOrder("IMG_10", "IMG_2"))
        #expect(NaturalSort.areInIncreasingOrder("IMG_9.jpg", "IMG_10.jpg"))
        #expect(NaturalSort.areInIncreasingOrder("a2b3", "a2b20"))
    }

    @Test func lettersCompareCaseInsensitivelyFirst() {
        #expect(NaturalSort.areInIncreasingOrder("apple", "Banana"))
        #expect(NaturalSort.areInIncreasingOrder("Apple", "banana"))
        #expect(NaturalSort.areInIncreasingOrder("img_2", "IMG_10"))
    }

    @Test func equalIgnoringCaseIsBrokenByRawBytes() {
        #expect(NaturalSort.compare("A.jpg", "a.jpg") < 0)
        #expect(NaturalSort.compare("a.jpg", "A.jpg") > 0)
        #expect(NaturalSort.compare("same", "same") == 0)
    }

    @Test func leadingZerosCompareByValueThenStably() {
        #expect(NaturalSort.areInIncreasingOrder("IMG_002", "IMG_10"))
        #expect(NaturalSort.areInIncreasingOrder("IMG_0009", "IMG_10"))
        // Same value: ordered by raw bytes, never reported equal.
        #expect(NaturalSort.compare("IMG_01", "IMG_1") != 0)
        #expect(NaturalSort.compare("IMG_01", "IMG_1") == -NaturalSort.compare("IMG_1", "IMG_01"))
        #expect(NaturalSort.areInIncreasingOrder("x0", "x00") || NaturalSort.areInIncreasingOrder("x00", "x0"))
    }

    @Test func veryLongDigitRunsDoNotOverflow() {
        let a = "n" + String(repeating: "9", count: 40)
        let b = "n1" + String(repeating: "0", count: 40)
        #expect(NaturalSort.areInIncreasingOrder(a, b))
    }

    @Test func prefixComesFirst() {
        #expect(NaturalSort.areInIncreasingOrder("IMG", "IMG_1"))
        #expect(NaturalSort.areInIncreasingOrder("", "a"))
    }

    @Test func sortingAListGivesTheOrderAPersonExpects() {
        let names = ["IMG_10.jpg", "img_2.jpg", "IMG_1.jpg", "IMG_0003.jpg", "Zebra.png", "apple.png", "IMG_2.jpg"]
        let sorted = NaturalSort.sorted(names) { $0 }
        #expect(sorted == ["apple.png", "IMG_1.jpg", "IMG_2.jpg", "img_2.jpg", "IMG_0003.jpg", "IMG_10.jpg", "Zebra.png"])
        // The order is total: sorting a shuffled copy gives the same result.
        #expect(NaturalSort.sorted(names.reversed()) { $0 } == sorted)
    }

    @Test func nonASCIILettersFoldCase() {
        #expect(NaturalSort.areInIncreasingOrder("étude 2", "Étude 10"))
        #expect(NaturalSort.compare("Ärger", "ärger") != 0)
    }
}
