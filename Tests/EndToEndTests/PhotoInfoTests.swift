import Foundation
import PickerClient
import PickerProtocol
import PickerSystem
import Testing

/// `photoInfo` and `pickerctl info` (issue 22 item 6) as a user drives them: a camera photo's
/// EXIF fields come from its header, GPS says only yes or no, and asking changes nothing.
@Suite(.timeLimit(.minutes(15))) struct PhotoInfoTests {
    static let camera = "camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg"

    @Test func infoShowsTheCameraPhotosHeaderAndTheReplyNeverSaysWhere() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/" + Self.camera),
                        album: "Cam", as: "canon.jpg")
        try library.add(TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/exif-orientation/Landscape_1.jpg"),
                        album: "Cam", as: "plain.jpg")
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        for args in [["session", "new", "i", "--width", "400"], ["select-album", "Cam"]] {
            let r = try await daemon.ctl(args: args, session: args[0] == "session" ? nil : "i")
            #expect(r.exitCode == 0, "\(args): \(r)")
        }
        let none = try await daemon.ctl("info", session: "i")
        #expect(none.exitCode == 3, "no current photo: \(none)")

        let json = try await daemon.ctl("--json", "info", "canon.jpg", session: "i")
        #expect(json.exitCode == 0, "\(json)")
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        #expect(fields["camera_make"] as? String == "Canon")
        #expect(fields["camera_model"] as? String == "Canon EOS 5D Mark III")
        #expect(fields["lens"] as? String == "EF24-70mm f/2.8L USM")
        #expect(fields["shutter"] as? String == "1/200 s")
        #expect(fields["aperture"] as? String == "f/2.8")
        #expect(fields["iso"] as? Int == 1000)
        #expect(fields["focal_length"] as? String == "35 mm")
        #expect(fields["colour_profile"] as? String == "sRGB IEC61966-2.1")
        #expect(fields["gps"] as? Bool == false)
        #expect(fields["format"] as? String == "JPEG" && fields["width"] as? Int == 5760 && fields["height"] as? Int == 3840)
        #expect(fields["date"] as? String == "2016-01-12 15:33:28" && fields["date_source"] as? String == "exif")

        let text = try await daemon.ctl("info", "--index", "2", session: "i")
        #expect(text.exitCode == 0 && text.stdoutText.contains("Path:") && text.stdoutText.contains("GPS:"), "\(text)")
        let status = try await daemon.ctl("--json", "status", session: "i")
        #expect(status.stdoutText.contains("\"photo\":null"), "info changed the session: \(status)")
    }

    @Test func theReplyDecodesOverTheSocketAndAnUnknownExtensionIsSkipped() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/" + Self.camera),
                        album: "Cam", as: "canon.jpg")
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "info")
        for step: Request in [.sessionNew(NewSession(name: "r", width: 300, height: nil)), .selectAlbum(session: "r", .index(2)),
                              .selectPhoto(session: "r", .index(1))] {
            if case .error(let e) = try conn.call(step) { throw e }
        }
        guard case .photoInfo(let d) = try conn.call(.photoInfo(session: "r", photo: nil)) else {
            Issue.record("no photoInfoReply")
            return
        }
        #expect(d.cameraMake == "Canon" && d.iso == 1000 && d.exposureTime == PhotoDetails.Rational(1, 200))
        #expect(d.path == "Cam/canon.jpg" && !d.hasGPS)
        // A newer client's request with an extension this server does not know: still answered.
        var payload = Request.photoInfo(session: "r", photo: nil).frame(id: 9).payload
        payload += [200, 0, 0, 0, 2, 0xAB, 0xCD]
        let raw = try RawConnection(socketPath: daemon.socketPath, clientName: "newer")
        try FileDescriptorIO.sendAll(raw.fd, Frame(type: MessageType.photoInfo.rawValue, requestID: 9, payload: payload).encoded())
        let replies = try raw.replies(to: [9])
        guard case .photoInfo(let again) = replies[9] else {
            Issue.record("the extended request was not answered: \(String(describing: replies[9]))")
            return
        }
        #expect(again == d)
    }
}
