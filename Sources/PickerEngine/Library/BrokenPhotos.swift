import PickerProtocol
import PickerSystem
import Synchronization

/// Photos known not to decode, with the reason, keyed by the file's version (device, inode, size,
/// mtime): a file written again has another version, so it is tried afresh. Kept in memory only —
/// a restart forgets the marks and the next failed decode records them again (the index is written
/// from the watcher's thread alone, and a decode failure is found on a worker).
public final class BrokenPhotos: Sendable {
    /// Beyond this many marks the oldest half is forgotten: a library of bad files cannot grow it without bound.
    static let capacity = 100_000
    private let marks = Mutex<[FileVersion: String]>([:])

    public init() {}

    /// The errors that mean the file itself cannot be shown (not a busy daemon or a cancelled job).
    static func marksBroken(_ error: PickerError) -> Bool {
        error.code == .corruptImage || error.code == .unsupportedImage
    }

    /// Remembers `error` as the reason `version` cannot be shown, when it is a decode failure.
    /// - Returns: true when the photo was not known broken before (news worth an event).
    @discardableResult
    func record(_ error: PickerError, version: FileVersion, photoName: String) -> Bool {
        guard Self.marksBroken(error) else { return false }
        let reason = Self.reason(from: error.message, photoName: photoName)
        return marks.withLock { marks in
            if marks.count >= Self.capacity { marks = [:] }
            return marks.updateValue(reason, forKey: version) == nil
        }
    }

    /// Why the file at `version` cannot be shown, or nil when it is not known broken.
    public func reason(for version: FileVersion) -> String? {
        marks.withLock { $0[version] }
    }

    /// The decoder's message without the photo's name in front ("corrupt JPEG data: Premature end of JPEG file").
    static func reason(from message: String, photoName: String) -> String {
        let prefix = photoName + ": "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }
}
