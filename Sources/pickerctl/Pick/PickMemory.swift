#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// The album last used with each session name in each library, so the next `pickerctl pick` (whose
/// session pick made and closed again) opens there. One small file per library and session name, in
/// `$XDG_STATE_HOME/pickerctl/last-album` (default `~/.local/state/pickerctl/last-album`), named by a hash
/// of both and holding them (NUL-separated, which no path or name contains) before the album, so a hash
/// collision is never taken for a memory. Best effort: a folder that cannot be used remembers nothing.
struct PickMemory {
    let folder: String?

    static func standard() -> PickMemory {
        if let state = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), state.hasPrefix("/") {
            return PickMemory(folder: state + "/pickerctl/last-album")
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") else { return PickMemory(folder: nil) }
        return PickMemory(folder: home + "/.local/state/pickerctl/last-album")
    }

    func lastAlbum(library: String, session: String) -> String? {
        guard let directory = open() else { return nil }
        let key = Self.key(library, session)
        guard case .bytes(let bytes) = directory.read(Self.fileName(key), maxBytes: 16384),
              bytes.count > key.count, Array(bytes[0..<key.count]) == key else { return nil }
        return String(decoding: bytes[key.count...], as: UTF8.self)
    }

    func remember(album: String, library: String, session: String) {
        guard let directory = open() else { return }
        let key = Self.key(library, session)
        try? AtomicFileWriter.replace(Self.fileName(key), in: directory.descriptor, with: key + Array(album.utf8), durable: false)
    }

    private func open() -> StateDirectory? {
        guard let folder else { return nil }
        return try? StateDirectory(path: folder, purpose: "pick's album memory")
    }

    private static func key(_ library: String, _ session: String) -> [UInt8] {
        Array(library.utf8) + [0] + Array(session.utf8) + [0]
    }

    /// FNV-1a, 64 bits, in hex: a short safe file name for any key.
    static func fileName(_ key: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
