import Foundation
import Testing

/// The library is live: the daemon watches it (inotify) and says which photos were added, removed
/// and changed, without anyone asking; listings and sessions follow. Driven the way a user would:
/// files copied, moved and deleted by hand while `pickerctl watch --library --json` runs.
@Suite(.timeLimit(.minutes(15))) struct LibraryWatchTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon
    let photo = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")

    init() async throws {
        library = try await TemporaryLibrary()
        try library.add(photo, album: "A", as: "one.jpg")
        try library.add(photo, album: "A", as: "two.jpg")
        daemon = try await LiveDaemon(library: library.url)
    }

    /// `pickerctl watch --library --json` in the background, its stdout in a file.
    final class Watch {
        let pid: pid_t
        let out: String
        init(_ daemon: LiveDaemon) throws {
            out = daemon.directory.appendingPathComponent("watch-\(UUID().uuidString.prefix(6)).out").path
            pid = try spawnProcess(TestEnvironment.pickerctl.path, ["--socket", daemon.socketPath, "watch", "--library", "--json"],
                                   environment: ["PATH": "/usr/bin:/bin"], stdin: "/dev/null", stdout: out, stderr: out)
        }
        deinit {
            kill(pid, SIGTERM)
            _ = waitForExit(pid)
        }
        /// The `library_changes` events so far, as (added, removed, changed).
        var changes: [(added: [String], removed: [String], changed: [String])] {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      o["event"] as? String == "library_changes" else { return nil }
                return (o["added"] as? [String] ?? [], o["removed"] as? [String] ?? [], o["changed"] as? [String] ?? [])
            }
        }
        /// Waits (up to 15 s from now) until the events so far satisfy `done`; the caller's #expect names what.
        func wait(_ done: ([(added: [String], removed: [String], changed: [String])]) -> Bool) async -> Bool {
            await waitUntil { done(changes) }
        }
        /// Waits (up to 15 s from now) until `condition` holds, without parsing the events on each poll.
        func waitUntil(_ condition: () -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(15)
            while !condition() {
                if Date() > deadline { return false }
                await pause(50_000)
            }
            return true
        }
        var all: (added: [String], removed: [String], changed: [String]) {
            changes.reduce(into: ([], [], [])) { $0.0 += $1.added; $0.1 += $1.removed; $0.2 += $1.changed }
        }
    }

    private func names(_ album: String) async throws -> [String] {
        _ = try await daemon.ctl("session", "new", "n", "--width", "100")
        _ = try await daemon.ctl("select-album", album, session: "n")
        let r = try await daemon.ctl("photos", "--json", session: "n")
        let list = (try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])?["photos"] as? [[String: Any]] ?? []
        return list.compactMap { $0["name"] as? String }
    }

    @Test func addingMovingAndDeletingPhotosAndFoldersIsAnnouncedByPath() async throws {
        let watch = try Watch(daemon)
        await #expect(try daemon.ctl("library", "--wait").exitCode == 0)
        await pause(200_000)  // the watcher subscribes

        try library.add(photo, album: "B", as: "new.jpg")
        await #expect(watch.wait { _ in watch.all.added.contains("B/new.jpg") }, "added: \(watch.changes)")
        await #expect(try names("B") == ["new.jpg"])

        try FileManager.default.moveItem(at: library.url.appendingPathComponent("A/two.jpg"),
                                         to: library.url.appendingPathComponent("B/two.jpg"))
        await #expect(watch.wait { _ in watch.all.added.contains("B/two.jpg") && watch.all.removed.contains("A/two.jpg") },
                "moved: \(watch.changes)")
        await #expect(try names("A") == ["one.jpg"])

        try FileManager.default.moveItem(at: library.url.appendingPathComponent("B"), to: library.url.appendingPathComponent("C"))
        await #expect(watch.wait { _ in Set(watch.all.added).isSuperset(of: ["C/new.jpg", "C/two.jpg"])
                && Set(watch.all.removed).isSuperset(of: ["B/new.jpg", "B/two.jpg"]) }, "folder renamed: \(watch.changes)")

        try FileManager.default.removeItem(at: library.url.appendingPathComponent("C"))
        await #expect(watch.wait { _ in watch.all.removed.filter { $0.hasPrefix("C/") }.count == 2 }, "folder deleted: \(watch.changes)")
        let albums = try await daemon.ctl("albums")
        #expect(!albums.stdoutText.contains(" C "), "\(albums)")
    }

    @Test func aPhotoCopiedSlowlyIsIndexedOnceComplete() async throws {
        let watch = try Watch(daemon)
        await #expect(try daemon.ctl("library", "--wait").exitCode == 0)
        await pause(200_000)
        let bytes = try Data(contentsOf: photo)
        let target = library.url.appendingPathComponent("A/slow.jpg")
        guard FileManager.default.createFile(atPath: target.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: target.path) else {
            Issue.record("cannot create \(target.path)")
            return
        }
        // In 8 chunks, 100 ms apart: under the 300 ms settle delay, so no half file is indexed.
        let chunk = (bytes.count + 7) / 8
        for i in 0..<8 {
            handle.write(bytes.subdata(in: (i * chunk)..<min(bytes.count, (i + 1) * chunk)))
            await pause(100_000)
        }
        handle.closeFile()
        await #expect(watch.wait { _ in watch.all.added.contains("A/slow.jpg") }, "\(watch.changes)")
        await pause(800_000)
        let all = watch.all
        #expect(all.added.filter { $0 == "A/slow.jpg" }.count == 1, "indexed once: \(watch.changes)")
        #expect(!all.changed.contains("A/slow.jpg"), "indexed complete, not changed afterwards: \(watch.changes)")
        _ = try await daemon.ctl("session", "new", "s", "--width", "100")
        _ = try await daemon.ctl("select-album", "A", session: "s")
        await #expect(try daemon.ctl("select-photo", "slow.jpg", session: "s").exitCode == 0)
        let image = try await daemon.ctl("get-image", session: "s")
        #expect(image.exitCode == 0 && isPNG(image.stdout), "the complete photo decodes: \(image)")
    }

    @Test func aSessionHearsWhenItsPhotoAndItsPicksAreGone() async throws {
        _ = try await daemon.ctl("session", "new", "g", "--width", "100")
        _ = try await daemon.ctl("select-album", "A", session: "g")
        await #expect(try daemon.ctl("toggle", "one.jpg", session: "g").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "two.jpg", session: "g").exitCode == 0)
        try FileManager.default.removeItem(at: library.url.appendingPathComponent("A/one.jpg"))
        try FileManager.default.removeItem(at: library.url.appendingPathComponent("A/two.jpg"))
        var status: [String: Any] = [:]
        try await waitUntil("the status to say the picked photos are no longer in the library", within: 60, every: 50_000, seen: { "\(status)" }) {
            let r = try await daemon.ctl("status", "--json", session: "g")
            status = (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
            return (status["message"] as? String)?.contains("no longer in the library") == true && status["selection_count"] as? Int == 0
        }
        #expect((status["message"] as? String)?.contains("two.jpg is no longer in the library") == true, "\(status)")
        #expect(status["selection_count"] as? Int == 0, "\(status)")
        let selection = try await daemon.ctl("selection", "--json", session: "g")
        #expect(!selection.stdoutText.contains("one.jpg"), "the gone pick is dropped: \(selection)")
    }

    /// Editing the photo a session shows (here: replaced by a bigger one) tells the session's
    /// subscribers, so a client showing it asks for the new picture and message.
    @Test func aSessionHearsWhenItsCurrentPhotosFileChanges() async throws {
        _ = try await daemon.ctl("session", "new", "e", "--width", "100")
        _ = try await daemon.ctl("select-album", "A", session: "e")
        await #expect(try daemon.ctl("select-photo", "two.jpg", session: "e").exitCode == 0)
        let out = daemon.directory.appendingPathComponent("watch-e.out").path
        let watcher = try spawnProcess(TestEnvironment.pickerctl.path,
                                       ["--socket", daemon.socketPath, "--session", "e", "watch", "--json"],
                                       environment: ["PATH": "/usr/bin:/bin"], stdin: "/dev/null", stdout: out, stderr: out)
        defer { kill(watcher, SIGTERM); _ = waitForExit(watcher) }
        func photoEvents() -> [String] {
            ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n")
                .map(String.init).filter { $0.contains("\"event\":\"photo\"") }
        }
        // Subscribed once a change of our own shows up.
        for attempt in 0..<300 where photoEvents().isEmpty {
            if attempt % 10 == 0 { _ = try await daemon.ctl("select-photo", attempt % 20 == 0 ? "one.jpg" : "two.jpg", session: "e") }
            await pause(20_000)
        }
        await #expect(try daemon.ctl("select-photo", "two.jpg", session: "e").exitCode == 0)
        await pause(200_000)
        let before = photoEvents().count
        let bigger = TestEnvironment.corpus.root.appendingPathComponent("camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg")
        let staged = library.url.appendingPathComponent("A/.two.tmp")
        try FileManager.default.copyItem(at: bigger, to: staged)
        #expect(rename(staged.path, library.url.appendingPathComponent("A/two.jpg").path) == 0)
        var after: [String] = []
        try await waitUntil("a photo event with the replaced file's new size 5760x3840", within: 60, every: 50_000, seen: { "\(after)" }) {
            after = Array(photoEvents().dropFirst(before))
            return after.contains { $0.contains("5760x3840") }
        }
        #expect(after.contains { $0.contains("5760x3840") && $0.contains("two.jpg") },
                "a photo event with the new size: \(after)")
    }

    /// A scan that takes a while reports how far it has got: `scan_progress` events about 4 a
    /// second (files done against the count the walk found), then one saying ready.
    @Test func aLongRescanSendsProgressEventsThenReady() async throws {
        let watch = try Watch(daemon)
        await #expect(try daemon.ctl("library", "--wait").exitCode == 0)
        await pause(200_000)
        // 20,000 files made beside the library, then moved in with one rename: one rescan of about
        // 0.65 s in a debug build here (6,000 took 165 ms, under one tick).
        let staging = library.url.deletingLastPathComponent().appendingPathComponent("stage-\(UUID().uuidString.prefix(6))")
        defer { _ = try? runProcessBlocking("/bin/rm", ["-rf", staging.path]) }
        let made = try await runProcess(TestEnvironment.python, ["-c", """
            import os, sys
            src, folder = sys.argv[1], sys.argv[2]
            os.makedirs(folder)
            data = open(src, 'rb').read()
            for i in range(20000):
                with open(os.path.join(folder, 'p%d.jpg' % i), 'wb') as f: f.write(data)
            """, photo.path, staging.path])
        try #require(made.exitCode == 0, "\(made)")
        try FileManager.default.moveItem(at: staging, to: library.url.appendingPathComponent("Big"))
        func progress() -> [[String: Any]] {
            let text = (try? String(contentsOfFile: watch.out, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").filter { $0.contains("scan_progress") }.compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }
        await #expect(watch.waitUntil { progress().contains { $0["state"] as? String == "ready" } }, "\(progress())")
        let seen = progress()
        let scanning = seen.filter { $0["state"] as? String == "scanning" }
        #expect(!scanning.isEmpty, "\(seen)")
        #expect(scanning.allSatisfy { ($0["files_done"] as? Int ?? 0) <= ($0["files_expected"] as? Int ?? 0) }, "\(seen)")
        #expect(seen.last?["files_done"] as? Int == 20_002, "the end counts every file looked at: \(seen)")
        let text = try await daemon.ctl("library")
        #expect(text.stdoutText.contains("scan:    ready") && text.stdoutText.contains("photos:  20002"), "\(text)")
        _ = try await runProcess("/bin/rm", ["-rf", library.url.appendingPathComponent("Big").path])  // FileManager takes seconds
    }
}
