/// Requests about the connection and the library: handshake, ping, library state, events, cancel.
extension RequestDeclaration {
    static let connection: [RequestDeclaration] = [
        RequestDeclaration(.hello, answer: .helloReply, .control, encode: { request, w in
            guard case .hello(let h) = request else { return }
            w.u16(h.version)
            w.string(h.clientName)
            h.extensions.encode(into: &w)
        }, decode: { r throws(PickerError) in
            let version = try r.u16()
            guard version == ProtocolLimits.version else {
                // Only the version's place is fixed across versions; the rest of another version's
                // hello may be laid out differently. Read the name if it parses and ignore the rest,
                // so the server answers unsupported_version, not malformed_frame.
                let name = (try? r.string()) ?? ""
                r.skipToEnd()
                return .hello(Hello(version: version, clientName: name))
            }
            let name = try r.string()
            return .hello(Hello(version: version, clientName: name, extensions: try ExtensionArea.decode(from: &r)))
        }),
        RequestDeclaration(.ping, answer: .pong, .control, decode: { _ in .ping }),
        RequestDeclaration(.libraryInfo, answer: .libraryInfoReply, .interactive, decode: { _ in .libraryInfo }),
        RequestDeclaration(.scanProgress, answer: .scanProgressReply, .interactive, decode: { _ in .scanProgress }),
        RequestDeclaration(.subscribe, answer: .subscribed, .control, encode: { request, w in
            guard case .subscribe(let s) = request else { return }
            s.encode(into: &w)
        }, decode: { r throws(PickerError) in .subscribe(try Subscription.decode(from: &r)) }),
        RequestDeclaration(.cancel, answer: .cancelReply, .control, encode: { request, w in
            guard case .cancel(let id) = request else { return }
            w.u32(id)
        }, decode: { r throws(PickerError) in .cancel(requestID: try r.u32()) }),
    ]
}
