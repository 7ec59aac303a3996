#if canImport(Glibc)
import Glibc
#endif
import PickerProtocol
import PickerSystem

/// What can go wrong talking to the daemon, as a client sees it.
public enum ClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nobody listens at the socket (exit code 5).
    case cannotConnect(path: String, reason: String)
    /// The daemon answered with an error.
    case server(PickerError)
    /// The daemon broke the protocol or the connection dropped.
    case connectionLost(String)
    /// The socket is served by another user, or lies in a folder another user controls (exit code 5).
    /// Nothing was sent.
    case untrustedServer(path: String, message: String)

    public var description: String {
        switch self {
        case let .cannotConnect(path, reason):
            return "cannot reach pickerd at \(path): \(reason) (is pickerd running? start it with `pickerd &`)"
        case .server(let e): return e.message
        case .connectionLost(let why): return "connection to pickerd lost: \(why)"
        case .untrustedServer(_, let message): return message
        }
    }
}

/// A blocking connection to pickerd: connect, handshake, then request/reply.
/// Not thread-safe: one caller at a time (pipelining is done with `send`/`receive`).
public final class PickerConnection {
    public let socketPath: String
    public private(set) var capabilities: Capabilities
    private let fd: Int32
    private var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
    /// Reused for every read, so a stream of frames allocates nothing per read.
    private var nextID: UInt32 = 1

    /// Connects, checks that the server runs as this user, and performs the handshake.
    /// - Throws: `.cannotConnect` when nobody listens; `.untrustedServer` when another user serves the
    ///   socket or controls its `/tmp` fallback folder (before a byte is sent); `.server` when the version is refused.
    public init(socketPath: String, clientName: String = "pickerctl") throws(ClientError) {
        self.socketPath = socketPath
        if socketPath.utf8.count > UnixSocket.maxPathLength {
            throw .cannotConnect(path: socketPath, reason: "socket path longer than \(UnixSocket.maxPathLength) bytes")
        }
        if DefaultSocketPath.isInFallbackDirectory(socketPath), let problem = DefaultSocketPath.fallbackDirectoryProblem() {
            throw .untrustedServer(path: socketPath, message: "\(problem); refusing to use the socket \(socketPath)")
        }
        do {
            fd = try UnixSocket.connect(path: socketPath)
        } catch {
            throw .cannotConnect(path: socketPath, reason: error.errno.description)
        }
        do {
            try PickerConnection.checkServedByUs(fd, path: socketPath)
        } catch {
            FileDescriptorIO.close(fd)
            throw error
        }
        capabilities = Capabilities(version: 0, serverVersion: "", maxRequestFrame: 0, maxReplyFrame: 0,
                                    inputFormats: [], outputFormats: [])
        let reply = try call(.hello(Hello(clientName: clientName)))
        guard case .hello(let caps) = reply else {
            throw .connectionLost("unexpected handshake reply")
        }
        capabilities = caps
    }

    deinit { FileDescriptorIO.close(fd) }

    /// Whoever listens at a path gets every request, and its replies reach the terminal and the shell's
    /// completion: only a server running as this very user is spoken to (SO_PEERCRED).
    private static func checkServedByUs(_ fd: Int32, path: String) throws(ClientError) {
        let me = getuid()
        let server: uid_t
        do {
            server = try UnixSocket.peerUID(fd)
        } catch {
            throw .untrustedServer(path: path, message: "cannot tell who serves the socket \(path) (\(error)); refusing to talk to it")
        }
        if server != me {
            throw .untrustedServer(path: path, message: "the socket \(path) is served by uid \(server), not by you (uid \(me)); refusing to talk to it")
        }
    }

    /// Sends a request and waits for its reply. Error replies throw `.server`.
    public func call(_ request: Request) throws(ClientError) -> Reply {
        let id = try send(request)
        let reply = try receive(id: id)
        if case .error(let e) = reply { throw .server(e) }
        return reply
    }

    /// Sends a request without waiting; returns its id.
    public func send(_ request: Request) throws(ClientError) -> UInt32 {
        let id = nextID
        nextID &+= 1
        do {
            try FileDescriptorIO.sendAll(fd, request.frame(id: id).encoded())
        } catch {
            // The daemon may have refused us and closed (other uid, too busy): its reason is waiting to be read.
            if let frame = try? nextFrame(), frame.requestID == 0, case .error(let e)? = try? Reply(frame: frame) {
                throw .server(e)
            }
            throw .connectionLost(error.description)
        }
        return id
    }

    /// Waits for the reply with `id` (replies may arrive in any order; others are dropped).
    /// An error with id 0 is about the connection itself (refused, too busy) and is returned at once.
    public func receive(id: UInt32) throws(ClientError) -> Reply {
        while true {
            let frame = try nextFrame()
            if frame.isEvent { continue }
            if frame.requestID != id && !(frame.requestID == 0 && frame.type == MessageType.error.rawValue) { continue }
            do {
                return try Reply(frame: frame)
            } catch {
                throw .connectionLost("bad reply: \(error.message)")
            }
        }
    }

    /// The socket, for a caller that polls it beside other descriptors (`pickerctl pick`).
    public var descriptor: Int32 { fd }

    /// A frame already read and buffered, without reading the socket: after `nextFrame`, drain these
    /// before polling again, since one read may have brought several frames.
    public func bufferedFrame() throws(ClientError) -> Frame? {
        do {
            return try decoder.next()
        } catch {
            throw .connectionLost(error.pickerError.message)
        }
    }

    /// The next frame from the daemon, in arrival order.
    public func nextFrame() throws(ClientError) -> Frame {
        while true {
            do {
                if let frame = try decoder.next() { return frame }
            } catch {
                throw .connectionLost(error.pickerError.message)
            }
            var progress = IOProgress.wouldBlock
            do {
                let fd = self.fd
                try decoder.receive { raw throws(SystemError) in
                    progress = try FileDescriptorIO.read(fd, into: raw)
                    if case .transferred(let n) = progress { return n }
                    return 0
                }
            } catch {
                throw .connectionLost(error.description)
            }
            switch progress {
            case .transferred: continue
            case .endOfFile: throw .connectionLost("the daemon closed the connection")
            case .wouldBlock: continue
            }
        }
    }
}
