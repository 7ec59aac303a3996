import PickerProtocol
import Testing

/// Rules docs/PROTOCOL.md states in words, checked on its own vectors with one byte changed.
@Suite struct DocumentedRuleTests {
    /// The vector `label` with the first byte of its line annotated `comment` set to `value`.
    private func patched(_ label: String, at comment: String, to value: UInt8) throws -> Frame {
        let vector = try #require(ProtocolDocument.vectors.first { $0.label == label }, "no vector '\(label)'")
        var offset = 0
        var found = false
        for line in vector.text.split(separator: "\n") {
            let parts = line.split(separator: "#", maxSplits: 1)
            let hex = parts.first.map { $0.split(separator: " ") } ?? []
            if parts.count > 1 && parts[1].contains(comment) {
                found = true
                break
            }
            offset += hex.count
        }
        try #require(found, "no line '\(comment)' in '\(label)'")
        var bytes = vector.bytes
        bytes[offset] = value
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        decoder.append(bytes)
        return try #require(try decoder.next())
    }

    private func decodingError(_ frame: Frame) -> ErrorCode? {
        do {
            _ = try Reply(frame: frame)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func everyBoolFieldAcceptsOnlyZeroAndOne() throws {
        for (label, field) in [("thumbnailsReply id=26 with image", "has_image"), ("cancelReply id=31", "found")] {
            #expect(decodingError(try patched(label, at: field, to: 1)) == nil, "\(field) = 1")
            #expect(decodingError(try patched(label, at: field, to: 2)) == .malformedFrame, "\(field) = 2 must be malformed_frame")
            #expect(decodingError(try patched(label, at: field, to: 0xff)) == .malformedFrame, "\(field) = 255")
        }
        #expect(decodingError(try patched("cancelReply id=31", at: "found", to: 0)) == nil)
        // The primitive table names both, and types them bool where they are defined.
        #expect(ProtocolDocument.text.contains("| 11 | `has_image` | bool |"))
        #expect(ProtocolDocument.text.contains("| 2 | `found` | bool |"))
    }

    @Test func aDateSourceFromANewerServerIsReadNotRefused() throws {
        for label in ["photosReply id=13", "photosPageReply id=35"] {
            let frame = try patched(label, at: "date_source", to: 7)
            let reply = try Reply(frame: frame)
            let photos: [PhotoInfo]
            switch reply {
            case .photos(let list): photos = list.photos
            case .photosPage(let page): photos = page.photos
            default: photos = []
            }
            #expect(photos.first?.dateSource != .exif, "\(label): read like 0 (not EXIF)")
            #expect(photos.first?.dateSource.rawValue == 7, "\(label): the value is kept")
            #expect(try Reply(frame: frame).frame(id: frame.requestID) == frame, "\(label): re-encodes as received")
        }
    }
}
