import Foundation
import PickerClient
import PickerProtocol

/// A daemon serving corpus files, one album per category, and a client for it.
final class CorpusDaemon: @unchecked Sendable {
    let library: TemporaryLibrary
    let daemon: LiveDaemon
    let connection: PickerConnection
    let session: String

    init(entries: [ManifestEntry], width: Int, height: Int?) async throws {
        library = try await TemporaryLibrary()
        for e in entries { try library.add(e.url, album: e.category) }
        daemon = try await LiveDaemon(library: library.url)
        connection = try PickerConnection(socketPath: daemon.socketPath, clientName: "corpus-test")
        session = "corpus"
        _ = try connection.call(.sessionNew(NewSession(name: session, width: width, height: height)))
    }

    /// Photo names listed in an album (empty if the album does not exist: nothing in it was indexed).
    func photoNames(album: String) throws -> Set<String> {
        let albums = try connection.call(.albums)
        guard case .albums(let list) = albums, list.contains(where: { $0.name == album }) else { return [] }
        _ = try connection.call(.selectAlbum(session: session, .name(album)))
        guard case .photos(let photos) = try connection.call(.photos(session: session, sort: .name)) else { return [] }
        return Set(photos.photos.map(\.name))
    }

    /// Selects and renders one photo; the reply or the daemon's error.
    func render(_ entry: ManifestEntry, format: ImageFormat = .png) throws -> Result<EncodedImage, PickerError> {
        let reply: Reply
        do throws(ClientError) {
            _ = try connection.call(.selectAlbum(session: session, .name(entry.category)))
            _ = try connection.call(.selectPhoto(session: session, .name(entry.fileName)))
            reply = try connection.call(.getImage(ImageRequest(session: session, format: format)))
        } catch {
            guard case .server(let e) = error else { throw error }
            return .failure(e)
        }
        guard case .image(let img) = reply else { return .failure(PickerError(.internal, "not an image reply")) }
        return .success(img)
    }
}

/// Expected fitted size: aspect kept, never upscaled, rounded down, at least 1.
func expectedFit(_ w: Int, _ h: Int, maxW: Int, maxH: Int?) -> (Int, Int) {
    var scale = min(1.0, Double(maxW) / Double(w))
    if let maxH { scale = min(scale, Double(maxH) / Double(h)) }
    if scale >= 1 { return (w, h) }
    return (max(1, Int(Double(w) * scale)), max(1, Int(Double(h) * scale)))
}

func close(_ a: (Int, Int), _ b: (Int, Int), tolerance: Int = 1) -> Bool {
    abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance
}
