import Foundation
import PickerProtocol
import PickerSystem

/// Decodes in a pool of warm, sandboxed worker processes (`DecoderWorker`), one per worker slot.
///
/// For each job the daemon passes the descriptor it opened beneath the library root and the plan;
/// the worker answers with the pane-sized pixels in a sealed memfd. A job waits for a free worker.
/// A worker that crashes, breaks its sandbox, overruns its deadline or whose job is cancelled is
/// killed and replaced at once, so the pool stays at its size; the photo gets an error naming it.
public final class SandboxedDecoder: PictureDecoding, @unchecked Sendable {
    /// Settings of the pool.
    public struct Settings: Sendable {
        /// The executable to run with `--decoder-worker` (the daemon: `/proc/self/exe`).
        public var executable: String
        public var workers: Int
        public var maxPhotoBytes: Int
        /// A job's deadline: this many seconds plus `secondsPerMegapixel` of its stored size.
        public var baseSeconds: Double = 10
        public var secondsPerMegapixel: Double = 0.25
        /// Debug builds: photos named `misbehave-<kind>.*` get test-only jobs (`DecoderMisbehaviour`).
        public var misbehaviourEnabled = false

        public init(executable: String, workers: Int, maxPhotoBytes: Int) {
            self.executable = executable
            self.workers = max(1, workers)
            self.maxPhotoBytes = maxPhotoBytes
        }
    }

    /// Data-segment room of a worker beyond its job's reservation: runtime, libraries, arenas.
    static let baseMemoryCap = 192 << 20

    let settings: Settings
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var idle: [DecoderProcess] = []
    private var alive = 0

    public init(_ settings: Settings) {
        self.settings = settings
        condition.lock()
        for _ in 0..<settings.workers { if let p = startOne() { idle.append(p) } }
        condition.unlock()
    }

    /// Process ids of the workers alive now (for tests and `status`).
    public var workerPIDs: [Int32] {
        condition.lock()
        defer { condition.unlock() }
        return idle.map(\.pid)
    }

    public func decode(_ open: OpenPhoto, _ request: DecodeRequest) throws(PickerError) -> PixelImage {
        try decodePixels(open, request).image()
    }

    /// The worker's pixels left in their memfd, for an encoder that streams them (`SealedPixelRows`).
    public func decodePixels(_ open: OpenPhoto, _ request: DecodeRequest) throws(PickerError) -> DecodedPixels {
        guard open.status.size <= Int64(settings.maxPhotoBytes) else {
            _ = try open.readAll(maxBytes: settings.maxPhotoBytes)  // its error, word for word
            throw PickerError(.imageTooLarge, "photo '\(open.photo.relativePath)' is too large to read")
        }
        let job = DecodeMessages.Job(kind: kind(of: request, photo: open.photo),
                                     photoName: request.photoName, maxPixels: request.maxPixels,
                                     fileBytes: Int(max(0, open.status.size)))
        guard let rows = try perform(job, open, memoryBytes: request.memoryBytes) else {
            throw PickerError(.internal, "\(request.photoName): the decoder sent no pixels")
        }
        return .rows(rows)
    }

    public func embeddedThumbnail(_ open: OpenPhoto, header: ImageHeader, covering cover: PixelSize,
                                  maxPixels: Int) -> PixelImage? {
        let prefix = min(Int64(EmbeddedThumbnail.prefix(for: header.format)), max(0, open.status.size))
        let job = DecodeMessages.Job(kind: .embeddedThumbnail(header: header, covering: cover),
                                     photoName: open.photo.fileName, maxPixels: maxPixels, fileBytes: Int(prefix))
        do throws(PickerError) {
            return try perform(job, open, memoryBytes: Int(prefix) + 4 * cover.width * cover.height * 4)?.readAll()
        } catch {
            Log.debug("\(open.photo.fileName): no embedded thumbnail: \(error.message)")
            return nil
        }
    }

    /// Runs one job on a worker checked out for it.
    private func perform(_ job: DecodeMessages.Job, _ open: OpenPhoto, memoryBytes: Int) throws(PickerError) -> SealedPixelRows? {
        let seconds = deadlineSeconds(open.photo.header)
        let process = try checkOut(job.photoName)
        let memoryCap = Self.baseMemoryCap + 2 * max(0, memoryBytes)
        let outcome = process.run(DecodeMessages.encode(job), photo: open.fd, memoryCap: memoryCap, cpuSeconds: seconds)
        do {
            return try finish(outcome, process: process, job: job, seconds: seconds)
        } catch where CodecResult.isNoMemory(error) {
            // An allocation refused at the worker's cap, which comes from the file's own header.
            throw PickerError(.imageTooLarge, "\(error.message): the decoder needed more than its \(memoryCap >> 20) MiB memory cap")
        }
    }

    private func kind(of request: DecodeRequest, photo: Photo) -> DecodeMessages.Kind {
        if let m = DecoderMisbehaviour.requested(byPhotoNamed: photo.fileName, enabled: settings.misbehaviourEnabled) {
            return .misbehave(m)
        }
        switch request.plan {
        case .fitted(let fit): return .fitted(fit)
        case .upright(let size, let embedded): return .upright(minimumDisplaySize: size, embeddedThumbnail: embedded)
        case .cell(let size): return .cell(size: size)
        case .window(let view, let zoom): return .window(view: view, zoom: zoom)
        }
    }

    private func deadlineSeconds(_ header: ImageHeader) -> Double {
        let megapixels = Double(max(0, header.storedWidth)) * Double(max(0, header.storedHeight)) / 1e6
        return settings.baseSeconds + settings.secondsPerMegapixel * megapixels
    }

    /// The pixels of an answer, or the error the outcome means; the worker goes back to the pool or is replaced.
    private func finish(_ outcome: DecoderProcess.Outcome, process: DecoderProcess, job: DecodeMessages.Job,
                        seconds: Double) throws(PickerError) -> SealedPixelRows? {
        let photoName = job.photoName
        switch outcome {
        case .answered(.none, let memfd):
            if let memfd { FileSystem.close(memfd) }
            if job.wantsPixels { try distrust(process, photoName, because: "no pixels and no error") }
            checkIn(process)
            return nil
        case .answered(.failure(let error), let memfd):
            if let memfd { FileSystem.close(memfd) }
            checkIn(process)
            throw error
        case .answered(.pixels(let width, let height, let channels), let memfd):
            return try believed(memfd, width: width, height: height, channels: channels, process: process, photoName: photoName)
        case .died(let status):
            replace()
            Log.error("\(photoName): decoder worker \(process.pid) ended: \(DecoderProcess.describe(status))")
            throw PickerError(.corruptImage, "\(photoName): the decoder was stopped: \(DecoderProcess.describe(status))")
        case .cancelled:
            Log.debug("\(photoName): decoder worker \(process.pid) killed: its job was cancelled")
            replace()
            throw PickerError(.cancelled, "\(photoName): cancelled")
        case .overran:
            replace()
            throw PickerError(.corruptImage,
                              "\(photoName): the decoder was stopped: decoding used more than its \(Int(seconds.rounded())) s of CPU time")
        case .garbled(let why):
            replace()
            throw PickerError(.corruptImage, "\(photoName): the decoder was stopped: it answered garbage (\(why))")
        }
    }

    /// An answer of pixels, checked: a worker that sends pixels the daemon cannot use (no memfd, a
    /// bad channel count or size, an unsealed or wrong-sized memfd) was broken by the photo it read,
    /// so it is killed and replaced and the photo is reported corrupt, as for a crash.
    private func believed(_ memfd: Int32?, width: Int, height: Int, channels: Int, process: DecoderProcess,
                          photoName: String) throws(PickerError) -> SealedPixelRows {
        let rows: SealedPixelRows
        do throws(PickerError) {
            guard let memfd else { throw PickerError(.internal, "pixels without a memfd") }
            rows = try Self.pixels(memfd, width: width, height: height, channels: channels)
        } catch {
            try distrust(process, photoName, because: error.message)
        }
        checkIn(process)
        return rows
    }

    /// Kills and replaces a worker whose answer cannot be believed; always throws.
    private func distrust(_ process: DecoderProcess, _ photoName: String, because why: String) throws(PickerError) -> Never {
        process.kill()
        replace()
        Log.error("\(photoName): decoder worker \(process.pid) killed: its answer was unusable: \(why)")
        throw PickerError(.corruptImage, "\(photoName): the decoder was stopped: it answered garbage (\(why))")
    }

    /// A result's memfd as rows, after checking its size against the pane limit and its seals;
    /// the rows own the descriptor from here on (closed also when the check fails).
    static func pixels(_ memfd: Int32, width: Int, height: Int, channels: Int) throws(PickerError) -> SealedPixelRows {
        do throws(PickerError) {
            try check(memfd, width: width, height: height, channels: channels)
        } catch {
            FileSystem.close(memfd)
            throw error
        }
        return SealedPixelRows(fd: memfd, width: width, height: height, channels: channels)
    }

    private static func check(_ memfd: Int32, width: Int, height: Int, channels: Int) throws(PickerError) {
        guard channels == 3 || channels == 4 else { throw PickerError(.internal, "\(channels) channels") }
        let count = try PixelImage.canvasByteCount(width: width, height: height, channels: channels)
        do throws(SystemError) {
            try SealedPixels.check(memfd, count: count)
        } catch {
            throw PickerError(.internal, "pixels unusable: \(error)")
        }
    }

    private func checkOut(_ photoName: String) throws(PickerError) -> DecoderProcess {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let p = idle.popLast() { return p }
            if alive < settings.workers {
                guard let p = startOne() else {
                    throw PickerError(.internal, "\(photoName): cannot start a decoder worker")
                }
                return p
            }
            condition.wait()
        }
    }

    private func checkIn(_ process: DecoderProcess) {
        condition.lock()
        idle.append(process)
        condition.signal()
        condition.unlock()
    }

    /// A worker was killed or died (and was reaped): a fresh one takes its place. It goes to the far
    /// end of the idle list (`checkOut` takes from the near end), so a warm idle worker serves the
    /// next job while this one starts (~35 ms wall, ~21 ms CPU to ready: runtime, libraries,
    /// heif_init, sandbox; `scripts/decoder-respawn-cost.py`).
    private func replace() {
        condition.lock()
        alive -= 1
        if let p = startOne() { idle.insert(p, at: 0) }
        condition.signal()
        condition.unlock()
    }

    /// Starts one worker (the caller holds the lock).
    private func startOne() -> DecoderProcess? {
        do throws(SystemError) {
            let p = try DecoderProcess.spawn(executable: settings.executable)
            alive += 1
            return p
        } catch {
            Log.error("cannot start a decoder worker: \(error)")
            return nil
        }
    }
}
