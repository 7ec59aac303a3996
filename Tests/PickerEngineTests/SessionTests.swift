@testable import PickerEngine
import PickerProtocol
import PickerSystem
import Testing

@Suite struct SessionTests {
    @Test func paneSizesOutside16To8192AreRefusedNamingTheRange() {
        for (w, h) in [(15, 100), (8193, 100), (100, 15), (100, 9000), (0, nil), (-5, nil)] as [(Int, Int?)] {
            #expect(throws: PickerError.self) { try Session(NewSession(name: "s", width: w, height: h)) }
            do {
                _ = try Session(NewSession(name: "s", width: w, height: h))
            } catch {
                #expect(error.code == .outOfRange)
                #expect(error.message.contains("16…8192"))
            }
        }
        #expect((try? Session(NewSession(name: "s", width: 16, height: 8192))) != nil)
        #expect((try? Session(NewSession(name: "s", width: 8192, height: nil))) != nil)
    }

    @Test func defaultsAreTitleAndTenPicks() throws {
        let s = try Session(NewSession(name: "s", width: 100, height: nil))
        #expect(s.title == "Photo Library")
        #expect(s.maxSelection == 10)
        #expect(s.album == nil && s.photo == nil && s.selection.isEmpty)
    }

    @Test func badSessionNamesAreRefused() {
        for name in ["", "a/b", "tab\there", String(repeating: "x", count: 129)] {
            #expect(throws: PickerError.self) { try Session(NewSession(name: name, width: 100, height: nil)) }
        }
    }
}

@Suite struct PhotoMessageTests {
    @Test func messageReadsLikeTheDesign() {
        #expect(PhotoMessage.text(width: 4032, height: 3024, bytes: 3_100_000, formatName: "JPEG") == "4032x3024 px, 3.1 MB, JPEG")
        #expect(PhotoMessage.humanBytes(999) == "999 bytes")
        #expect(PhotoMessage.humanBytes(1_000) == "1.0 kB")
        #expect(PhotoMessage.humanBytes(349_915) == "349.9 kB")
        #expect(PhotoMessage.humanBytes(999_999) == "1.0 MB")
    }
}

@Suite struct RenderCacheTests {
    private func key(_ i: Int) -> RenderKey {
        RenderKey(file: FileVersion(identity: FileIdentity(device: 1, inode: UInt64(i)), size: 1, mtimeSeconds: 0, mtimeNanoseconds: 0),
                  target: .thumbnailCell(size: 10))
    }
    private func image(_ bytes: Int) -> EncodedImage {
        EncodedImage(format: .png, width: 1, height: 1, data: [UInt8](repeating: 0, count: bytes))
    }

    @Test func evictsLeastRecentlyUsedUnderTheByteBound() {
        let cache = RenderCache(capacityBytes: 12_000)
        for i in 0..<5 { cache.put(key(i), image(2_000)) }
        #expect(cache.statistics.bytes <= 12_000)
        _ = cache.get(key(0))  // touch 0 so 1 is the oldest
        cache.put(key(5), image(2_000))
        #expect(cache.get(key(0)) != nil)
        #expect(cache.get(key(1)) == nil)
        #expect(cache.statistics.bytes <= 12_000)
    }

    @Test func anEntryLargerThanTheBoundIsNotKept() {
        let cache = RenderCache(capacityBytes: 1_000)
        cache.put(key(1), image(5_000))
        #expect(cache.get(key(1)) == nil)
        #expect(cache.statistics.entries == 0)
    }

    @Test func aChangedFileIsAnotherKey() {
        let cache = RenderCache(capacityBytes: 100_000)
        cache.put(key(1), image(10))
        var changed = key(1)
        changed.file.mtimeSeconds = 99
        #expect(cache.get(changed) == nil)
    }
}
