import CPickerCodecs
import CPickerSandbox
import CPickerSys
import PickerProtocol
import PickerSystem
#if canImport(Glibc)
import Glibc
#endif

/// The decoder worker process (`pickerd --decoder-worker`, started by `SandboxedDecoder`): it
/// warms the libraries, enters the sandbox (`pk_sandbox_enter`: no_new_privs, seccomp allowlist,
/// no core files, few descriptors) before it reads a byte of any photo, then answers jobs on
/// descriptor 3 one at a time until the daemon closes its end.
public enum DecoderWorker {
    /// The socketpair end the daemon hands over as descriptor 3.
    static let channelDescriptor: Int32 = 3
    /// Descriptors the sandbox allows: 0–2, the channel, one photo and one memfd, and spares for libraries.
    static let maxDescriptors: Int32 = 16

    /// Runs the worker; returns the exit status (0: the daemon closed the channel).
    public static func run() -> Int32 {
        // Decoding is image work: it yields the CPU to the daemon's socket thread, lane and session
        // writer, as the pool threads that wait for it do (spawned at start-up, it would inherit
        // nice 0 and outrank them). Threads the libraries start later inherit this.
        pk_lower_thread_priority(WorkerPool.imageWorkNice)
        warmUp()
        let logCopy = pk_sandbox_quiet_stderr()
        if logCopy >= 0 { Log.writeLines(to: logCopy) }
        guard pk_sandbox_enter(maxDescriptors) == 0 else {
            Log.error("decoder worker: cannot enter the sandbox: \(Errno.current); not decoding")
            return 70
        }
        let channel = DescriptorChannel(fd: channelDescriptor)
        while true {
            let message: (bytes: [UInt8], descriptor: Int32?)?
            do throws(SystemError) {
                message = try channel.receive()
            } catch {
                Log.error("decoder worker: \(error)")
                return 71
            }
            guard let message else { return 0 }
            let reply = answer(message.bytes, photo: message.descriptor)
            do throws(SystemError) {
                try channel.send(DecodeMessages.encode(reply.result), descriptor: reply.memfd)
            } catch {
                return 72
            }
            if let memfd = reply.memfd { FileSystem.close(memfd) }
        }
    }

    /// What the libraries would otherwise do lazily through paths or unlisted calls.
    private static func warmUp() {
        pk_sandbox_warm_up()
        // Large blocks straight from mmap and back, as in the daemon (`PickerService`).
        pk_map_large_blocks(256 << 10)
        // Streaming decodes resample on a helper thread, as on an idle pool thread in the daemon.
        if pk_sandbox_helper_start() == 0 { pk_helper_use(pk_sandbox_helper_spawn, nil) }
        // Swift's hashing seed and the runtime's first allocations happen before the filter.
        var seen: Set<String> = ["warm"]
        seen.insert(String(Int.random(in: 0..<10)))
        _ = seen.count
    }

    /// Runs one job; the photo's descriptor is closed before this returns.
    static func answer(_ bytes: [UInt8], photo: Int32?) -> (result: DecodeMessages.Result, memfd: Int32?) {
        defer { if let photo { FileSystem.close(photo) } }
        do throws(PickerError) {
            let job = try DecodeMessages.decodeJob(bytes)
            if case .misbehave(let m) = job.kind, let garbage = untrustworthyAnswer(m) { return garbage }
            guard let photo else { throw PickerError(.internal, "\(job.photoName): no descriptor came with the job") }
            guard let image = try decode(job, photo: photo) else { return (.none, nil) }
            let memfd: Int32
            do throws(SystemError) {
                memfd = try SealedPixels.make(image.pixels)
            } catch {
                throw PickerError(.internal, "\(job.photoName): cannot pass the pixels back: \(error)")
            }
            return (.pixels(width: image.width, height: image.height, channels: image.channels), memfd)
        } catch {
            return (.failure(error), nil)
        }
    }

    /// The job's pixels; nil when an embedded-thumbnail job finds none that serves.
    private static func decode(_ job: DecodeMessages.Job, photo: Int32) throws(PickerError) -> PixelImage? {
        let plan: DecodePlan
        switch job.kind {
        case .fitted(let fit): plan = .fitted(fit)
        case .upright(let size, let embedded): plan = .upright(minimumDisplaySize: size, embeddedThumbnail: embedded)
        case .cell(let size): plan = .cell(size: size)
        case .window(let view, let zoom): plan = .window(view: view, zoom: zoom)
        case .embeddedThumbnail(let header, let cover):
            return EmbeddedThumbnail.upright(try read(photo, job), header: header, covering: cover, maxPixels: job.maxPixels)
        case .misbehave(let m): return try misbehave(m, photoName: job.photoName)
        case .unknown(let raw): throw PickerError(.internal, "\(job.photoName): decoder job kind \(raw) is unknown")
        }
        // A RAW whose preview covers the plan: its start alone (`RAWPrefix`), the whole file if that fails.
        if let prefix = RAWPrefix.length(fd: photo, fileBytes: job.fileBytes, plan: plan),
           let image = try? InProcessDecoder.run(plan, bytes: try read(photo, job, count: prefix), photoName: job.photoName,
                                                 maxPixels: job.maxPixels) {
            return image
        }
        return try InProcessDecoder.run(plan, bytes: try read(photo, job), photoName: job.photoName, maxPixels: job.maxPixels)
    }

    private static func read(_ photo: Int32, _ job: DecodeMessages.Job, count: Int? = nil) throws(PickerError) -> [UInt8] {
        do throws(SystemError) {
            return try FileSystem.read(photo, at: 0, count: count ?? job.fileBytes)
        } catch {
            throw PickerError(.ioError, "cannot read photo '\(job.photoName)': \(error.errno)")
        }
    }

    /// The test-only answers the daemon must not believe (debug builds): nil for the other
    /// misbehaviours, which act inside the decode.
    private static func untrustworthyAnswer(_ m: DecoderMisbehaviour) -> (result: DecodeMessages.Result, memfd: Int32?)? {
        #if DEBUG
        let side = 8
        func memfd(_ count: Int) -> Int32? { try? SealedPixels.make([UInt8](repeating: 0x80, count: count)) }
        switch m {
        case .noMemfd: return (.pixels(width: side, height: side, channels: 3), nil)
        case .badChannels: return (.pixels(width: side, height: side, channels: 2), memfd(side * side * 2))
        case .shortMemfd: return (.pixels(width: side, height: side, channels: 3), memfd(side * side))
        case .hugeSize: return (.pixels(width: 1 << 20, height: 1 << 20, channels: 4), memfd(side * side * 4))
        case .nothing: return (.none, nil)
        case .crash, .spin, .allocate, .open, .socket: return nil
        }
        #else
        return nil
        #endif
    }

    /// The test-only misbehaviours (debug builds); release builds refuse them.
    private static func misbehave(_ m: DecoderMisbehaviour, photoName: String) throws(PickerError) -> PixelImage {
        #if DEBUG
        switch m {
        case .crash: pk_sandbox_crash()
        case .spin: pk_sandbox_spin()
        case .allocate:
            if pk_sandbox_allocate(8 << 30) != 0 {
                throw CodecResult.noMemory(photoName: photoName)
            }
        case .open:
            let fd = pk_sandbox_try_open("/etc/passwd")
            if fd >= 0 { throw PickerError(.internal, "\(photoName): the sandbox let the decoder open a path") }
            throw PickerError(.permissionDenied, "\(photoName): the decoder may not open paths (\(Errno.current))")
        case .socket: _ = pk_sandbox_try_socket()
        case .noMemfd, .badChannels, .shortMemfd, .hugeSize, .nothing: break  // answered before the decode
        }
        throw PickerError(.internal, "\(photoName): the misbehaviour \(m.name) returned")
        #else
        throw PickerError(.internal, "\(photoName): test-only decoder jobs are not in this build")
        #endif
    }
}
