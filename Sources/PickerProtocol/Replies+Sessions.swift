/// Replies that carry sessions: one session's state, the list of them, a closed session's name.
extension ReplyDeclaration {
    static let sessions: [ReplyDeclaration] = [
        ReplyDeclaration(type: .sessionState, encode: { reply, w in
            if case .session(let state) = reply { state.encode(into: &w) }
        }, decode: { r throws(PickerError) in .session(try SessionState.decode(from: &r)) }),
        ReplyDeclaration(type: .sessionListReply, encode: { reply, w in
            guard case .sessionList(let list) = reply else { return }
            w.count(list.count)
            for state in list { state.encode(into: &w) }
        }, decode: { r throws(PickerError) in
            let n = try r.count(minElementSize: SessionState.minWireSize)
            var list: [SessionState] = []
            for _ in 0..<n { list.append(try SessionState.decode(from: &r)) }
            return .sessionList(list)
        }),
        ReplyDeclaration(type: .sessionClosed, encode: { reply, w in
            if case .sessionClosed(let name) = reply { w.string(name) }
        }, decode: { r throws(PickerError) in .sessionClosed(name: try r.string()) }),
        ReplyDeclaration(type: .choicesReply, encode: { reply, w in
            if case .choices(let list) = reply { SessionChoice.encode(list, into: &w) }
        }, decode: { r throws(PickerError) in .choices(try SessionChoice.decodeList(from: &r)) }),
    ]
}
