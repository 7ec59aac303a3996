#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PickerEngine
import PickerProtocol
import PickerSystem
import Synchronization

/// pickerd from start to exit: claim the socket, index the library, serve until SIGINT/SIGTERM,
/// then finish in-flight work, save sessions and remove the socket.
public enum Daemon {
    public static let version = Release.version

    /// Runs the daemon; returns the process exit code.
    public static func run(_ config: DaemonConfiguration) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        // A parent may have left these blocked; SIGINT/SIGTERM are how pickerd is asked to stop.
        // They arrive through a signalfd the socket thread reads, so they are blocked here, before
        // any thread exists: every thread inherits the mask and none can take them instead.
        let stopSignals: SignalDescriptor
        do {
            stopSignals = try SignalDescriptor([SIGINT, SIGTERM])
        } catch {
            Log.error("cannot receive SIGINT/SIGTERM: \(error)")
            return 1
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: config.libraryRoot, isDirectory: &isDir), isDir.boolValue else {
            Log.error("library folder \(config.libraryRoot) does not exist or is not a folder")
            return 1
        }
        // Absolute from here on: the library is reported and compared by its real path.
        var config = config
        if let real = realpath(config.libraryRoot, nil) {
            config.libraryRoot = String(cString: real)
            free(real)
        }
        let listenFD: Int32
        let activated = SocketActivation.inheritedListener(environment: Environment.current)
        if let fd = activated {
            listenFD = fd
            Log.info("using the socket passed by systemd (socket activation)")
        } else {
            do {
                listenFD = try ListeningSocket.claim(path: config.socketPath)
            } catch {
                Log.error(error.message)
                return 1
            }
        }
        var engine = EngineConfiguration(
            libraryRoot: config.libraryRoot, stateDirectory: config.stateDirectory,
            cacheBytes: config.cacheMB << 20, maxPixels: config.maxMegapixels * 1_000_000,
            serverVersion: Release.serverVersion, thumbnailCacheHome: config.thumbnailCacheHome)
        engine.workBudgetBytes = config.memoryMB << 20
        engine.indexDirectory = config.indexDirectory
        engine.workers = config.workers
        engine.prefetch = config.prefetch
        engine.showsRawPairs = config.showsRawPairs
        engine.sandboxedDecoding = decoderSettings(config)
        let relay = EventRelay()
        let service = PickerService(configuration: engine, events: { relay.send($0) })
        let server: Server
        do {
            var limits = ServerLimits()
            limits.idleTimeout = config.idleTimeoutSeconds > 0 ? Double(config.idleTimeoutSeconds) : nil
            // Told to a client whose hello asks (the first field added by the extension rule).
            var capabilities = service.capabilities
            capabilities.extensions.setU32(Hello.Extension.idleTimeout, UInt32(clamping: config.idleTimeoutSeconds))
            server = try Server(listenFD: listenFD, handler: EngineHandler(service: service),
                                capabilities: capabilities, limits: limits)
        } catch {
            Log.fault("cannot start the server loop: \(error)")
            if activated == nil { unlink(config.socketPath) }
            return 1
        }
        relay.connect { [weak server] in server?.publish($0) }
        Log.info("listening on \(activated == nil ? config.socketPath : "the activated socket") (pickerd \(version), cache \(config.cacheMB) MiB, image work \(config.memoryMB) MiB)")

        do {
            try server.stopOnSignals(stopSignals.descriptor)
        } catch {
            Log.fault("cannot watch for SIGINT/SIGTERM: \(error)")
            if activated == nil { unlink(config.socketPath) }
            return 1
        }
        // Listen first: the socket answers at once, whatever the library's size; the first scan and
        // then inotify keep the index current in the background.
        let ready = ReadyNotice(fd: config.readyFD)
        service.whenFirstScanEnds { ready.scanned() }
        ready.listening()
        service.startLibrary()
        server.run()
        service.stop()
        withExtendedLifetime(stopSignals) {}
        // An activated socket belongs to systemd, which keeps listening for the next start.
        if activated == nil { unlink(config.socketPath) }
        Log.info("stopped")
        return 0
    }
}

/// Carries engine events to the server, which exists only after the engine does.
final class EventRelay: Sendable {
    /// The closure sits in a struct: a bare closure in a `Mutex` is re-wrapped in two reabstraction
    /// thunks by every `withLock` (inout through the generic), so each event made the next call one
    /// link deeper: megabytes of stack on every thread that publishes, and heap that never came back.
    private struct Target { let send: @Sendable (Event) -> Void }
    private let target = Mutex<Target?>(nil)
    func connect(_ f: @escaping @Sendable (Event) -> Void) { target.withLock { $0 = Target(send: f) } }
    func send(_ event: Event) { target.withLock { $0 }?.send(event) }
}

/// Adapts the engine's service to the server loop.
struct EngineHandler: RequestHandling {
    let service: PickerService
    func handle(_ request: Request) -> Reply { service.handle(request) }
    var pool: WorkerPool { service.pool }
    func prepare(_ request: Request) -> PreparedRequest { service.prepare(request) }
    func handle(_ request: Request, prepared: PreparedRequest) -> Reply { service.handle(request, prepared: prepared) }
}
