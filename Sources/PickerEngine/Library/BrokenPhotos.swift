import PickerProtocol
import PickerSystem
import Synchronization

/// Photos known not to decode, with the reason, keyed by the file's version (device, inode, size,
/// mtime): a file written again has another version, so it is tried afresh. Kept across restarts in
/// the library index's `broken` column: workers record marks here, and the library watcher (the
/// index's one writer) takes the unsaved ones each turn of its loop and writes them.
public final class BrokenPhotos: Sendable {
    /// Beyond this many marks the oldest half is forgotten: a library of bad files cannot grow it without bound.
    static let capacity = 100_000
    private let marks = Mutex<[FileVersion: String]>([:])
    /// Marks recorded since the watcher last took them for the index.
    private let unsaved = Mutex<[BrokenMark]>([])

    public init() {}

    /// Whether a failure *of the decoder* (`PictureDecoding.decode(_:_:markingBrokenIn:newlyBroken:)`,
    /// the only caller that records) means the file itself cannot be shown:
    /// - `corrupt_image`: its bytes do not decode, or its decoder worker was stopped (a crash, a
    ///   call the sandbox forbids, its CPU deadline, an answer that does not parse);
    /// - `unsupported_image`: a variant the decoders do not read;
    /// - `image_too_large`: its own bytes exceed a cap — a declared size or a HEIF grid over
    ///   `--max-megapixels` or over twice what its `ispe` declares, more than 1024 grid tiles, a
    ///   worker's allocation refused at its memory cap (192 MiB plus twice the job's estimate, which
    ///   comes from the file's own header), a file over 100 MiB.
    /// Not: `cancelled` (a cancel, a superseded job), `io_error` (a read that may work next time),
    /// `internal`, `too_busy`. The work budget's refusal of a job larger than `--memory-mb` is also
    /// `image_too_large` but is raised before the decode and never reaches here.
    static func marksBroken(_ error: PickerError) -> Bool {
        error.code == .corruptImage || error.code == .unsupportedImage || error.code == .imageTooLarge
    }

    /// Whether a mark is written to the library index. An `image_too_large` reason may depend on
    /// the daemon's settings (`--max-megapixels`), so it is kept in memory only: each start finds it
    /// again with the cap then in force, as the header check does for a declared size.
    static func persists(_ error: PickerError) -> Bool {
        error.code != .imageTooLarge
    }

    /// Remembers `error` as the reason `version` cannot be shown, when it is a decode failure.
    /// - Returns: true when the photo was not known broken before (news worth an event).
    @discardableResult
    func record(_ error: PickerError, version: FileVersion, photo: Photo) -> Bool {
        guard Self.marksBroken(error) else { return false }
        let reason = Self.reason(from: error.message, photoName: photo.fileName)
        let isNew = marks.withLock { marks in
            if marks.count >= Self.capacity { marks = [:] }
            return marks.updateValue(reason, forKey: version) == nil
        }
        if isNew && Self.persists(error) {
            unsaved.withLock { $0.append(BrokenMark(path: photo.relativePath, version: version, reason: reason)) }
        }
        return isNew
    }

    /// The marks recorded since the last call, for the index (the watcher's thread).
    func takeUnsaved() -> [BrokenMark] {
        unsaved.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }

    /// Marks read back from the index at start-up.
    func restore(_ saved: [BrokenMark]) {
        marks.withLock { marks in
            for mark in saved.prefix(Self.capacity) { marks[mark.version] = mark.reason }
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

/// One mark as the index keeps it: the photo's path and file version, and why it does not decode.
struct BrokenMark: Sendable, Equatable {
    var path: String
    var version: FileVersion
    var reason: String
}
