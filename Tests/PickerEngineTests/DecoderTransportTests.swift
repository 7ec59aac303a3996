import Foundation
import Glibc
@testable import PickerEngine
import PickerProtocol
import PickerSystem
import PickerTestSupport
import Testing

/// The decoder worker's transport (issue 23): descriptors over a SOCK_SEQPACKET socketpair,
/// sealed memfds for pixels, and the job and result messages.
@Suite struct DecoderTransportTests {
    @Test func aDescriptorTravelsWithItsMessage() throws {
        let (a, b) = try DescriptorChannel.pair()
        defer { a.close(); b.close() }
        let memfd = try SealedPixels.make([1, 2, 3, 4, 5, 6])
        try a.send([9, 8, 7], descriptor: memfd)
        FileSystem.close(memfd)
        let got = try #require(try b.receive())
        #expect(got.bytes == [9, 8, 7])
        let fd = try #require(got.descriptor, "the descriptor came")
        defer { FileSystem.close(fd) }
        try SealedPixels.check(fd, count: 6)
        #expect(try FileSystem.read(fd, at: 0, count: 6) == [1, 2, 3, 4, 5, 6])
    }

    @Test func messagesKeepTheirBoundariesAndAClosedPeerReadsAsNil() throws {
        let (a, b) = try DescriptorChannel.pair()
        defer { b.close() }
        try a.send([1])
        try a.send([2, 3])
        #expect(try b.receive()?.bytes == [1])
        let second = try #require(try b.receive())
        #expect(second.bytes == [2, 3] && second.descriptor == nil)
        a.close()
        #expect(try b.receive() == nil)
    }

    @Test func aMessageLongerThanTheBufferIsRefusedNotCut() throws {
        let (a, b) = try DescriptorChannel.pair()
        defer { a.close(); b.close() }
        try a.send([UInt8](repeating: 7, count: 100))
        #expect(throws: SystemError.self) { _ = try b.receive(capacity: 10) }
    }

    @Test func aMemfdIsSealedAgainstResizingAndItsSizeIsChecked() throws {
        let fd = try SealedPixels.make([UInt8](repeating: 5, count: 64))
        defer { FileSystem.close(fd) }
        #expect(ftruncate(fd, 128) == -1, "F_SEAL_GROW holds")
        #expect(ftruncate(fd, 8) == -1, "F_SEAL_SHRINK holds: the daemon never reads past its end")
        // F_ADD_SEALS (1024 + 9) of F_SEAL_WRITE (8): Glibc's module does not export the names.
        #expect(fcntl(fd, 1033, 8) == -1, "F_SEAL_SEAL holds")
        #expect(throws: SystemError.self) { try SealedPixels.check(fd, count: 63) }
        try SealedPixels.check(fd, count: 64)
    }

    @Test func aDescriptorThatIsNoSealedMemfdIsRefused() throws {
        let fd = open("/dev/zero", O_RDONLY | O_CLOEXEC)
        #expect(fd >= 0)
        defer { FileSystem.close(fd) }
        #expect(throws: SystemError.self) { try SealedPixels.check(fd, count: 16) }
    }

    @Test func jobsAndResultsRoundTrip() throws {
        let jobs: [DecodeMessages.Job] = [
            .init(kind: .fitted(FitTarget(maxWidth: 800, maxHeight: 600, allowUpscale: true)),
                  photoName: "é.jpg", maxPixels: 200_000_000, fileBytes: 1234),
            .init(kind: .fitted(FitTarget(maxWidth: 640, maxHeight: nil)), photoName: "a", maxPixels: 1, fileBytes: 0),
            .init(kind: .upright(minimumDisplaySize: PixelSize(width: 96, height: 64), embeddedThumbnail: true),
                  photoName: "b.heic", maxPixels: 5, fileBytes: 9),
            .init(kind: .upright(minimumDisplaySize: nil, embeddedThumbnail: false), photoName: "c", maxPixels: 5, fileBytes: 9),
            .init(kind: .misbehave(.crash), photoName: "d", maxPixels: 5, fileBytes: 9),
            .init(kind: .cell(size: 100), photoName: "f.avif", maxPixels: 5, fileBytes: 9),
            .init(kind: .embeddedThumbnail(header: ImageHeader(format: .jpeg, storedWidth: 5760, storedHeight: 3840,
                                                               orientation: .right),
                                           covering: PixelSize(width: 100, height: 150)),
                  photoName: "e.jpg", maxPixels: 5, fileBytes: 196_608),
        ]
        for job in jobs { #expect(try DecodeMessages.decodeJob(DecodeMessages.encode(job)) == job) }
        let results: [DecodeMessages.Result] = [
            .pixels(width: 800, height: 533, channels: 3),
            .none,
            .failure(PickerError(.corruptImage, "x.jpg: corrupt JPEG data")),
            .failure(PickerError(ErrorCode(rawValue: 4242), "a code this build does not know is kept")),
        ]
        for result in results { #expect(try DecodeMessages.decodeResult(DecodeMessages.encode(result)) == result) }
    }

    @Test func anUnknownJobKindIsKeptAndAnsweredWithAnError() throws {
        let job = DecodeMessages.Job(kind: .unknown(77), photoName: "n.png", maxPixels: 1, fileBytes: 0)
        let parsed = try DecodeMessages.decodeJob(DecodeMessages.encode(job))
        #expect(parsed.kind == .unknown(77))
        // Any descriptor will do as the photo: the job never reads it (the worker closes it).
        let reply = DecoderWorker.answer(DecodeMessages.encode(job), photo: try SealedPixels.make([0]))
        guard case .failure(let error) = reply.result else { Issue.record("\(reply.result)"); return }
        #expect(error.code == .internal && error.message.contains("n.png"))
        #expect(reply.memfd == nil)
    }

    @Test func truncatedOrForeignMessagesAreErrorsNotCrashes() {
        let good = DecodeMessages.encode(DecodeMessages.Job(kind: .fitted(FitTarget(maxWidth: 1, maxHeight: 1)),
                                                            photoName: "p", maxPixels: 1, fileBytes: 1))
        for n in 0..<good.count {
            #expect(throws: PickerError.self) { _ = try DecodeMessages.decodeJob(Array(good.prefix(n))) }
        }
        #expect(throws: PickerError.self) { _ = try DecodeMessages.decodeJob([2] + good.dropFirst()) }
        #expect(throws: PickerError.self) { _ = try DecodeMessages.decodeResult([9]) }
        #expect(throws: PickerError.self) { _ = try DecodeMessages.decodeResult(DecodeMessages.encode(.pixels(width: 1, height: 1, channels: 3)) + [0]) }
    }

    /// The worker's job end to end, in this process: a real photo's descriptor in, sealed pixels out.
    @Test func aJobOnARealPhotoAnswersWithSealedPaneSizedPixels() throws {
        let path = TestCorpusLocation.fixtures.appendingPathComponent("pngsuite/basn2c08.png").path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        #expect(fd >= 0)
        let size = Int(try FileSystem.status(fd).size)
        let job = DecodeMessages.Job(kind: .fitted(FitTarget(maxWidth: 16, maxHeight: 16)), photoName: "basn2c08.png",
                                     maxPixels: 1_000_000, fileBytes: size)
        let reply = DecoderWorker.answer(DecodeMessages.encode(job), photo: fd)
        #expect(reply.result == .pixels(width: 16, height: 16, channels: 3))
        let memfd = try #require(reply.memfd)
        let rows = try SandboxedDecoder.pixels(memfd, width: 16, height: 16, channels: 3)  // owns memfd now
        #expect(try rows.readAll().size == PixelSize(width: 16, height: 16))
    }
}
