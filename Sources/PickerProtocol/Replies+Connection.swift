/// Replies about the connection and the library: capabilities, errors, pong, library state, events, cancel.
extension ReplyDeclaration {
    static let connection: [ReplyDeclaration] = [
        ReplyDeclaration(type: .helloReply, encode: { reply, w in
            guard case .hello(let c) = reply else { return }
            w.u16(c.version)
            w.string(c.serverVersion)
            w.u32(c.maxRequestFrame)
            w.u32(c.maxReplyFrame)
            w.bytes(c.inputFormats)
            w.bytes(c.outputFormats)
            c.extensions.encode(into: &w)
        }, decode: { r throws(PickerError) in
            let version = try r.u16()
            let server = try r.string()
            let maxRequest = try r.u32()
            let maxReply = try r.u32()
            let inputs = try r.bytes(of: PhotoFormat.self)
            let outputs = try r.bytes(of: ImageFormat.self)
            return .hello(Capabilities(version: version, serverVersion: server, maxRequestFrame: maxRequest,
                                       maxReplyFrame: maxReply, inputFormats: inputs, outputFormats: outputs,
                                       extensions: try ExtensionArea.decode(from: &r)))
        }),
        ReplyDeclaration(type: .error, encode: { reply, w in
            guard case .error(let e) = reply else { return }
            w.u16(e.code.rawValue)
            w.string(e.message)
        }, decode: { r throws(PickerError) in
            // A code from a newer server keeps its number (handled like `internal`).
            let code = ErrorCode(rawValue: try r.u16())
            return .error(PickerError(code, try r.string()))
        }),
        ReplyDeclaration(type: .pong, encode: { reply, w in
            if case .pong(let version) = reply { w.string(version) }
        }, decode: { r throws(PickerError) in .pong(serverVersion: try r.string()) }),
        ReplyDeclaration(type: .libraryInfoReply, encode: { reply, w in
            if case .libraryInfo(let info) = reply { info.encode(into: &w) }
        }, decode: { r throws(PickerError) in .libraryInfo(try LibraryInfo.decode(from: &r)) }),
        ReplyDeclaration(type: .scanProgressReply, encode: { reply, w in
            if case .scanProgress(let progress) = reply { progress.encode(into: &w) }
        }, decode: { r throws(PickerError) in .scanProgress(try ScanProgress.decode(from: &r)) }),
        ReplyDeclaration(type: .subscribed, encode: { reply, w in
            if case .subscribed(let s) = reply { s.encode(into: &w) }
        }, decode: { r throws(PickerError) in .subscribed(try Subscription.decode(from: &r)) }),
        ReplyDeclaration(type: .cancelReply, encode: { reply, w in
            guard case let .cancelReply(id, found) = reply else { return }
            w.u32(id)
            w.bool(found)
        }, decode: { r throws(PickerError) in .cancelReply(requestID: try r.u32(), found: try r.bool()) }),
    ]
}
