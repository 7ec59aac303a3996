import PickerClient
import PickerProtocol
import PickerSystem

/// The picker's calls to pickerd, on one connection, with errors as `CLIError`s: calls that wait for
/// their reply, and posted requests (the picture, the current photo) that do not (`PipelinedConnection`).
/// pickerd closes a connection left idle (`--idle-timeout`, 60 s by default) while the user looks at
/// a photo: the call is made once more on a new connection. A connection that cannot be made again is
/// "daemon gone" (exit 5): pick cannot go on without it.
final class PickDaemon {
    private let pipeline: PipelinedConnection
    let session: String

    init(connection: PickerConnection, session: String, reconnect: @escaping () throws(ClientError) -> PickerConnection) {
        pipeline = PipelinedConnection(connection: connection, reconnect: reconnect)
        self.session = session
    }

    func call(_ request: Request) throws(CLIError) -> Reply {
        do {
            return try pipeline.call(request)
        } catch {
            throw PickDaemon.cliError(error)
        }
    }

    // MARK: requests in flight (the picture, the current photo)

    /// Sends without waiting: the reply comes out of `arrivals()` under the ticket returned.
    func post(_ request: Request) throws(CLIError) -> Int {
        do {
            return try pipeline.post(request)
        } catch {
            throw PickDaemon.cliError(error)
        }
    }

    /// Stops a posted request; its reply (`cancelled`) still arrives.
    func cancel(_ ticket: Int) { pipeline.cancel(ticket) }

    /// The descriptor to poll for replies to posted requests.
    var descriptor: Int32 { pipeline.descriptor }

    /// Replies read already: poll must not wait while there are some.
    var hasArrivals: Bool { pipeline.hasArrivals }

    /// Reads what the daemon sent (`readable`: its descriptor polled readable) and hands over the replies
    /// to posted requests that have arrived. A call made since the poll may have read it all already:
    /// the socket is asked again, so the read never blocks.
    func arrivals(readable: Bool) throws(CLIError) -> [(ticket: Int, reply: Reply)] {
        if readable, (try? Terminal.waitReadable([descriptor], timeoutMilliseconds: 0))?.first == true {
            do throws(ClientError) {
                try pipeline.readArrivals()
            } catch {
                throw PickDaemon.cliError(error)
            }
        }
        return pipeline.takeArrivals()
    }

    static func cliError(_ error: ClientError) -> CLIError {
        if case .connectionLost = error { return CLIError(message: error.description, exitCode: .unreachable) }
        return CLIError(error)
    }

    func state(_ request: Request) throws(CLIError) -> SessionState {
        let reply = try call(request)
        guard case .session(let s) = reply else { throw unexpected(reply) }
        return s
    }

    func albums() throws(CLIError) -> [AlbumInfo] {
        let reply = try call(.albums)
        guard case .albums(let list) = reply else { throw unexpected(reply) }
        return list
    }

    /// One page of the selected album's photos in the session's order, from 0-based `offset`, with
    /// the album's total and the broken marks (`PhotoInfo.broken`); an empty page when no album is selected.
    func photosPage(offset: Int, limit: Int = PhotosPageRequest.maxLimit) throws(CLIError) -> PhotoPage {
        let request = PhotosPageRequest(session: session, offset: offset, limit: limit, markBroken: true)
        let reply: Reply
        do {
            reply = try callPhotosPage(request)
        } catch {
            // No album selected yet (or it vanished): an empty list, not an error.
            if case .server(let e) = error, e.code == .nothingSelected || e.code == .noSuchAlbum {
                return PhotoPage(album: "", sort: .name, total: 0, offset: offset, photos: [])
            }
            throw PickDaemon.cliError(error)
        }
        guard case .photosPage(let page) = reply else { throw unexpected(reply) }
        return page
    }

    /// A server from before broken marks refuses the flags byte with `malformed_frame` (the
    /// connection stays, docs/PROTOCOL.md): ask again without it, and the list just has no marks.
    private func callPhotosPage(_ request: PhotosPageRequest) throws(ClientError) -> Reply {
        do {
            return try pipeline.call(.photosPage(request))
        } catch {
            guard request.markBroken, case .server(let e) = error, e.code == .malformedFrame else { throw error }
            var plain = request
            plain.markBroken = false
            return try pipeline.call(.photosPage(plain))
        }
    }

    /// The session's choices; none from a daemon that does not know them (`unknown_message_type`).
    func choices() throws(CLIError) -> [SessionChoice] {
        let reply: Reply
        do {
            reply = try pipeline.call(.choices(session: session))
        } catch {
            if case .server(let e) = error, e.code == .unknownMessageType { return [] }
            throw PickDaemon.cliError(error)
        }
        guard case .choices(let list) = reply else { throw unexpected(reply) }
        return list
    }

    /// Sets one choice; the session's choices after it.
    func setChoice(id: String, value: String) throws(CLIError) -> [SessionChoice] {
        let reply = try call(.setChoice(session: session, id: id, value: value))
        guard case .choices(let list) = reply else { throw unexpected(reply) }
        return list
    }

    func selection() throws(CLIError) -> SelectionList {
        let reply = try call(.selection(session: session))
        guard case .selection(let list) = reply else { throw unexpected(reply) }
        return list
    }

    func libraryRoot() throws(CLIError) -> String {
        let reply = try call(.libraryInfo)
        guard case .libraryInfo(let info) = reply else { throw unexpected(reply) }
        return info.root
    }

    /// The session, created at `width`x`height` when missing (`host` nil), else resized to it (`host`:
    /// the pane size it had, which `restorePane` puts back).
    func openSession(width: Int, height: Int, maxSelection: Int?) throws(CLIError) -> (SessionState, host: PaneSize?) {
        let reply: Reply
        do throws(ClientError) {
            reply = try pipeline.call(.sessionShow(name: session))
        } catch {
            guard case .server(let e) = error, e.code == .noSuchSession else { throw PickDaemon.cliError(error) }
            let params = NewSession(name: session, width: width, height: height, maxSelection: maxSelection)
            return (try state(.sessionNew(params)), nil)
        }
        guard case .session(let existing) = reply else { throw unexpected(reply) }
        let host = PaneSize(width: existing.width, height: existing.height)
        return (try state(.sessionResize(name: session, width: width, height: height)), host)
    }

    /// Puts the host's pane size back, unless someone other than pick resized the session meanwhile
    /// (its size is no longer `ours`): pick leaves the session as the user left it, not as pick sized it.
    func restorePane(_ host: PaneSize, ifStill ours: PaneSize) {
        guard let now = try? state(.sessionShow(name: session)), PaneSize(width: now.width, height: now.height) == ours else { return }
        _ = try? call(.sessionResize(name: session, width: host.width, height: host.height))
    }
}

/// A session's pane size (height nil: only the width bounds the picture).
struct PaneSize: Equatable {
    var width: Int
    var height: Int?
}
