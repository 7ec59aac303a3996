import CPickerSandbox
import PickerProtocol
import PickerSystem
#if canImport(Glibc)
import Glibc
#endif

/// One warm decoder worker process and the daemon's end of its socketpair. Used by one job at a
/// time (`SandboxedDecoder` checks it out); killed when a job is cancelled or overruns its deadline.
final class DecoderProcess: @unchecked Sendable {
    let pid: pid_t
    let channel: DescriptorChannel
    static let argument = "--decoder-worker"

    private init(pid: pid_t, channel: DescriptorChannel) {
        self.pid = pid
        self.channel = channel
    }

    /// Starts `executable --decoder-worker` with the other end of a fresh socketpair as descriptor 3.
    static func spawn(executable: String) throws(SystemError) -> DecoderProcess {
        let (mine, theirs) = try DescriptorChannel.pair()
        defer { theirs.close() }
        let args: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup(argument)]
        defer { args.forEach { free($0) } }
        var argv = args + [nil]
        let pid = pk_spawn_worker(&argv, theirs.fd)
        guard pid > 0 else {
            mine.close()
            throw SystemError("posix_spawn \(executable)", Errno.current)
        }
        return DecoderProcess(pid: pid, channel: mine)
    }

    /// How a job on this worker ended.
    enum Outcome {
        /// The worker answered (and lives on); `memfd` carries the pixels of a success.
        case answered(DecodeMessages.Result, memfd: Int32?)
        /// The worker ended by itself (crash, SIGSYS, a failed allocation's abort): its wait status.
        case died(status: Int32)
        /// The job was cancelled: the worker was killed.
        case cancelled
        /// The job used up its CPU time (or stalled far past it): the worker was killed.
        case overran
        /// The worker said something that does not parse: it was killed.
        case garbled(String)
    }

    /// Sends one job with the photo's descriptor and waits for the answer, checking every few
    /// milliseconds whether the job was cancelled (`CancelFlag.currentIsRaised`) or the worker has
    /// used `cpuSeconds` of CPU time on it; either kills the worker. CPU time, not wall time: on a
    /// busy machine a good decode waits for a core and must not be taken for a bomb. A worker that
    /// stalls without using CPU is stopped after `stallFactor` times that in wall time.
    func run(_ job: [UInt8], photo: Int32, memoryCap: Int, cpuSeconds: Double) -> Outcome {
        let cpuStart = usedCPUSeconds()
        let wallLimit = monotonicNow() + max(Self.minimumStallSeconds, cpuSeconds * Self.stallFactor)
        _ = pk_set_soft_limit(pid, Int32(RLIMIT_DATA.rawValue), UInt64(max(0, memoryCap)))
        do throws(SystemError) {
            try channel.send(job, descriptor: photo)
        } catch {
            return .died(status: kill())
        }
        while !channel.waitReadable(milliseconds: 4) {
            if CancelFlag.currentIsRaised { _ = kill(); return .cancelled }
            if usedCPUSeconds() - cpuStart >= cpuSeconds || monotonicNow() >= wallLimit { _ = kill(); return .overran }
        }
        let message: (bytes: [UInt8], descriptor: Int32?)?
        do throws(SystemError) {
            message = try channel.receive()
        } catch {
            return .garbled("\(error) (\(kill()))")
        }
        guard let message else { return .died(status: reap()) }
        do throws(PickerError) {
            return .answered(try DecodeMessages.decodeResult(message.bytes), memfd: message.descriptor)
        } catch {
            if let fd = message.descriptor { FileSystem.close(fd) }
            _ = kill()
            return .garbled(error.message)
        }
    }

    static let stallFactor = 10.0
    static let minimumStallSeconds = 60.0

    /// CPU seconds the worker (all its threads) has used so far; 0 when its clock cannot be read.
    private func usedCPUSeconds() -> Double {
        var clock = clockid_t()
        var now = timespec()
        guard clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &now) == 0 else { return 0 }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// SIGKILL, reap, close the channel. Returns the wait status.
    @discardableResult
    func kill() -> Int32 {
        let status = pk_kill_and_reap(pid)
        channel.close()
        return status
    }

    /// Reaps a worker that closed its end (it is ending, or has ended).
    private func reap() -> Int32 {
        // A worker that closed its channel without exiting is not waited for: it is killed.
        var status: Int32 = 0
        for _ in 0..<50 {
            if pk_reap_if_ended(pid, &status) == 1 {
                channel.close()
                return status
            }
            usleep(1000)
        }
        return kill()
    }

    /// The wait status in words: "signal SIGSEGV (a crash)", "exit status 70".
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exit status \((status >> 8) & 0xff)" }
        switch signal {
        case SIGSEGV: return "signal SIGSEGV (a crash)"
        case SIGBUS: return "signal SIGBUS (a crash)"
        case SIGSYS: return "signal SIGSYS (a system call the sandbox forbids)"
        case SIGABRT: return "signal SIGABRT (it aborted)"
        case SIGTRAP, SIGILL: return "signal \(signal) (a runtime trap, e.g. out of memory under its cap)"
        case SIGKILL: return "signal SIGKILL"
        case SIGXCPU: return "signal SIGXCPU (its CPU limit)"
        default: return "signal \(signal)"
        }
    }
}
