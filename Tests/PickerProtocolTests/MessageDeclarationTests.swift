import PickerProtocol
import Testing

/// The declarations are the one table of messages: every type number is declared exactly once,
/// as a request, a reply or an event, and every request names a reply that exists.
@Suite struct MessageDeclarationTests {
    static let eventTypes: Set<MessageType> = [.sessionEvent, .libraryEvent, .libraryChangesEvent, .scanProgressEvent]

    @Test func everyMessageTypeIsDeclaredOnceAsARequestAReplyOrAnEvent() {
        let requests = RequestDeclaration.all.map(\.type)
        let replies = ReplyDeclaration.all.map(\.type)
        #expect(Set(requests).count == requests.count, "a request declared twice")
        #expect(Set(replies).count == replies.count, "a reply declared twice")
        #expect(Set(requests).isDisjoint(with: replies))
        #expect(Set(requests).union(replies).union(Self.eventTypes) == Set(MessageType.allCases))
    }

    @Test func everyRequestIsAnsweredByADeclaredReplyAndHasItsOwnNumberBelowTheEvents() {
        let replies = Set(ReplyDeclaration.all.map(\.type))
        for d in RequestDeclaration.all {
            #expect(replies.contains(d.answer), "\(d.type) is answered by \(d.answer), which is not a reply")
            #expect(d.type.rawValue < 0x80)
        }
    }

    /// Image work is exactly the three rendering requests; only hello, ping, subscribe and cancel
    /// are answered without queueing.
    @Test func schedulesAreTheDocumentedOnes() {
        let image = RequestDeclaration.all.filter { $0.schedule == .image }.map(\.type)
        let control = RequestDeclaration.all.filter { $0.schedule == .control }.map(\.type)
        #expect(Set(image) == [.getImage, .thumbnails, .preview])
        #expect(Set(control) == [.hello, .ping, .subscribe, .cancel])
    }

    /// Reads never change a session; the requests that move, pick, sort, resize, create or close do.
    @Test func readsDoNotChangeTheSession() {
        let changing = Set(RequestDeclaration.all.filter(\.changesSession).map(\.type))
        #expect(changing == [.sessionNew, .sessionResize, .sessionClose, .selectAlbum, .photos, .selectPhoto,
                             .stepPhoto, .setSort, .toggle, .clearSelection, .sessionFinish, .setChoice])
    }
}

/// PROTOCOL.md's list of unassigned numbers and its reserved event range agree with the declarations
/// (they once named 0x08/0x09 and 0x82/0x83 as unassigned while scanProgress and two events used them).
@Suite struct UnassignedNumbersTests {
    /// The numbers a `0xNN` or `0xNN`–`0xMM` list in `text` names.
    static func numbers(in text: Substring) -> Set<Int> {
        var out: Set<Int> = []
        let tokens = text.filter { $0 != "`" }.split(whereSeparator: { " ,()\n".contains($0) })
        for token in tokens where token.hasPrefix("0x") {
            let ends = token.split(separator: "–").map { Int($0.dropFirst(2).prefix(2), radix: 16) }
            guard let lo = ends.first ?? nil else { continue }
            let hi = (ends.count > 1 ? ends[1] : lo) ?? lo
            out.formUnion(lo...hi)
        }
        return out
    }

    @Test func noDeclaredNumberIsCalledUnassignedOrReserved() throws {
        let text = ProtocolDocument.text
        let start = try #require(text.range(of: "Every request may also be answered by `error` instead of its listed reply.\n"))
        let end = try #require(text.range(of: "are unassigned in version 1", range: start.upperBound..<text.endIndex))
        let unassigned = Self.numbers(in: text[start.upperBound..<end.lowerBound])
        let declared = Set(MessageType.allCases.map { Int($0.rawValue) })
        #expect(unassigned.intersection(declared).isEmpty, "called unassigned: \(unassigned.intersection(declared).sorted())")
        #expect(unassigned.union(declared) == Set(0...255), "neither declared nor unassigned: \(Set(0...255).subtracting(unassigned.union(declared)).sorted())")
        for row in text.split(separator: "\n") where row.contains("reserved") && row.hasPrefix("| `0x") {
            let cell = row.split(separator: "|").first ?? ""
            let reserved = Self.numbers(in: cell)
            #expect(reserved.intersection(declared).isEmpty, "reserved row names declared types: \(row)")
        }
    }
}
