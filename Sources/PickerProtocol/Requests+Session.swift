/// Requests that create, show, resize and close sessions.
extension RequestDeclaration {
    static let session: [RequestDeclaration] = [
        RequestDeclaration(.sessionNew, answer: .sessionState, .interactive, changesSession: true, encode: { request, w in
            guard case .sessionNew(let n) = request else { return }
            w.string(n.name)
            w.count(n.width)
            w.count(n.height ?? 0)
            w.u16(UInt16(clamping: n.maxSelection ?? 0))
            w.string(n.title ?? "")
            n.extensions.encode(into: &w)
        }, decode: { r throws(PickerError) in
            let name = try r.string()
            let width = Int(try r.u32())
            let height = Int(try r.u32())
            let maxSel = Int(try r.u16())
            let title = try r.string()
            let area = try ExtensionArea.decode(from: &r)
            return .sessionNew(NewSession(name: name, width: width, height: height == 0 ? nil : height,
                                          maxSelection: maxSel == 0 ? nil : maxSel, title: title.isEmpty ? nil : title,
                                          choices: try NewSession.choices(in: area), filter: try NewSession.filter(in: area)))
        }),
        RequestDeclaration(.sessionList, answer: .sessionListReply, .interactive, decode: { _ in .sessionList }),
        named(.sessionShow, answer: .sessionState) { .sessionShow(name: $0) },
        RequestDeclaration(.sessionResize, answer: .sessionState, .interactive, changesSession: true, encode: { request, w in
            guard case let .sessionResize(name, width, height) = request else { return }
            w.string(name)
            w.count(width)
            w.count(height ?? 0)
        }, decode: { r throws(PickerError) in
            let name = try r.string()
            let width = Int(try r.u32())
            let height = Int(try r.u32())
            return .sessionResize(name: name, width: width, height: height == 0 ? nil : height)
        }),
        named(.sessionClose, answer: .sessionClosed, changesSession: true) { .sessionClose(name: $0) },
        named(.status, answer: .sessionState) { .status(session: $0) },
        sessionAnd(.sessionFinish, answer: .sessionState, write: { (o: SessionOutcome, w) in w.u8(o.rawValue) },
                   read: { r throws(PickerError) in SessionOutcome(rawValue: try r.u8()) },
                   make: { .sessionFinish(session: $0, $1) },
                   value: { if case .sessionFinish(_, let o) = $0 { return o } else { return nil } }),
        named(.choices, answer: .choicesReply) { .choices(session: $0) },
        RequestDeclaration(.setChoice, answer: .choicesReply, .interactive, changesSession: true, encode: { request, w in
            guard case let .setChoice(session, id, value) = request else { return }
            w.string(session)
            w.string(id)
            w.string(value)
        }, decode: { r throws(PickerError) in
            .setChoice(session: try r.string(), id: try r.string(), value: try r.string())
        }),
    ]

    /// A request whose whole payload is the session's name.
    static func named(_ type: MessageType, answer: MessageType, changesSession: Bool = false,
                      _ make: @escaping @Sendable (String) -> Request) -> RequestDeclaration {
        RequestDeclaration(type, answer: answer, .interactive, changesSession: changesSession, encode: { request, w in
            if let name = request.sessionName { w.string(name) }
        }, decode: { r throws(PickerError) in make(try r.string()) })
    }

    /// A request of a session's name then one value (a selector, a sort, a direction): it changes the session.
    static func sessionAnd<Value: Sendable>(
        _ type: MessageType, answer: MessageType, write: @escaping @Sendable (Value, inout ByteWriter) -> Void,
        read: @escaping @Sendable (inout ByteReader) throws(PickerError) -> Value,
        make: @escaping @Sendable (String, Value) -> Request, value: @escaping @Sendable (Request) -> Value?
    ) -> RequestDeclaration {
        RequestDeclaration(type, answer: answer, .interactive, changesSession: true, encode: { request, w in
            guard let name = request.sessionName, let v = value(request) else { return }
            w.string(name)
            write(v, &w)
        }, decode: { r throws(PickerError) in make(try r.string(), try read(&r)) })
    }

    /// A request of a session's name then a selector (an album or a photo by name or index).
    static func selecting(_ type: MessageType, answer: MessageType,
                          _ make: @escaping @Sendable (String, Selector) -> Request,
                          _ selector: @escaping @Sendable (Request) -> Selector?) -> RequestDeclaration {
        sessionAnd(type, answer: answer, write: { s, w in s.encode(into: &w) },
                   read: { r throws(PickerError) in try Selector.decode(from: &r) }, make: make, value: selector)
    }
}
