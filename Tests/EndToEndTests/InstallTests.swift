import Foundation
import Testing

/// Whether the slow, opt-in tests run (`PICKER_SLOW_TESTS=1`).
let slowTestsEnabled = !(ProcessInfo.processInfo.environment["PICKER_SLOW_TESTS"] ?? "").isEmpty

/// README: `make install PREFIX=...` installs the binaries, the systemd user units with their
/// paths filled in, the docs, and completions for bash, zsh and fish. `make install` builds
/// release, which takes minutes here, so this test is opt-in: `PICKER_SLOW_TESTS=1`.
@Suite(.timeLimit(.minutes(15))) struct InstallTests {
    /// Runs `swift` with a private scratch folder, so the release build never waits on the lock of
    /// the `.build` that `swift test` holds; kept under `.build` so a rerun is incremental.
    private static func swiftWrapper(in dir: URL) throws -> URL {
        let scratch = TestEnvironment.packageRoot.appendingPathComponent(".build/install-test").path
        let script = "#!/bin/sh\nsub=\"$1\"; shift\nexec swift \"$sub\" --scratch-path '\(scratch)' \"$@\"\n"
        let url = dir.appendingPathComponent("swift-private-scratch")
        try script.write(to: url, atomically: true, encoding: .utf8)
        chmod(url.path, 0o755)
        return url
    }

    @Test(.enabled(if: slowTestsEnabled && FileManager.default.isExecutableFile(atPath: "/usr/bin/make"),
                   "opt-in (PICKER_SLOW_TESTS=1): make install builds release (~50 s cold here)"))
    func makeInstallFillsInTheUnitsAndInstallsRunnableBinariesAndCompletions() async throws {
        let scratch = try await ScratchDirectory()
        let destdir = scratch.url.appendingPathComponent("dest")
        let prefix = "/opt/pickerd-install-test"
        let swift = try Self.swiftWrapper(in: scratch.url)
        let started = Date()
        let make = try await runProcess("/usr/bin/make", ["-C", TestEnvironment.packageRoot.path, "install",
                                                   "PREFIX=\(prefix)", "DESTDIR=\(destdir.path)", "SWIFT=\(swift.path)"])
        print("make install took \(Int(Date().timeIntervalSince(started))) s")
        #expect(make.exitCode == 0, "\(make)")
        let root = destdir.path + prefix

        // Binaries, runnable.
        for (binary, version) in [("pickerd", "pickerd 0.1.0"), ("pickerctl", "pickerctl 0.1.0"), ("pickerd-portal", "pickerd-portal 0.1.0")] {
            let path = root + "/bin/" + binary
            #expect(FileManager.default.isExecutableFile(atPath: path), "\(path)")
            let r = try await runProcess(path, ["--version"])
            #expect(r.exitCode == 0 && r.stdoutText.contains(version), "\(r)")
        }

        // Units with every placeholder filled in, pointing at the installed binary.
        let service = (try? String(contentsOfFile: root + "/lib/systemd/user/pickerd.service", encoding: .utf8)) ?? ""
        let socket = (try? String(contentsOfFile: root + "/lib/systemd/user/pickerd.socket", encoding: .utf8)) ?? ""
        #expect(!service.isEmpty && !socket.isEmpty)
        // Placeholders are @NAME@; systemd's own @system-service syscall sets are not.
        let placeholder = /@[A-Z_]+@/
        #expect(!service.contains(placeholder) && !socket.contains(placeholder), "placeholders left:\n\(service)\n\(socket)")
        #expect(service.split(separator: "\n").contains("ExecStart=\(prefix)/bin/pickerd"), "\(service)")
        #expect(service.contains("file://\(prefix)/share/doc/pickerd/README.md"))
        #expect(socket.split(separator: "\n").contains("ListenStream=%t/pickerd.sock"), "\(socket)")
        #expect(FileManager.default.fileExists(atPath: root + "/share/doc/pickerd/README.md"))
        #expect(FileManager.default.fileExists(atPath: root + "/share/doc/pickerd/PROTOCOL.md"))

        // pickerd-portal: its .portal file, D-Bus activation file and unit, pointing at the installed binary.
        let portalFile = (try? String(contentsOfFile: root + "/share/xdg-desktop-portal/portals/pickerd.portal", encoding: .utf8)) ?? ""
        #expect(portalFile.contains("DBusName=org.freedesktop.impl.portal.desktop.pickerd") && portalFile.contains("UseIn=pickerd"), "\(portalFile)")
        let activation = (try? String(contentsOfFile: root + "/share/dbus-1/services/org.freedesktop.impl.portal.desktop.pickerd.service",
                                      encoding: .utf8)) ?? ""
        #expect(activation.split(separator: "\n").contains("Exec=\(prefix)/bin/pickerd-portal"), "\(activation)")
        let portalUnit = (try? String(contentsOfFile: root + "/lib/systemd/user/pickerd-portal.service", encoding: .utf8)) ?? ""
        #expect(portalUnit.split(separator: "\n").contains("ExecStart=\(prefix)/bin/pickerd-portal") && !portalUnit.contains(placeholder), "\(portalUnit)")
        #expect(FileManager.default.fileExists(atPath: root + "/share/doc/pickerd/portal/xdg-desktop-portal-1.16.conf"))

        // Man pages, generated from the command tables, readable by man.
        for page in ["pickerctl", "pickerd", "pickerd-portal"] {
            let path = root + "/share/man/man1/\(page).1"
            let shown = try await runProcess("/usr/bin/man", ["-l", path], environment: ["PATH": "/usr/bin:/bin", "MANPAGER": "cat"])
            #expect(shown.exitCode == 0 && shown.stdoutText.contains(page.uppercased() + "(1)"), "\(path): \(shown)")
        }

        // Completions in the three standard places, each the script pickerctl prints.
        let completions = [("bash", "/share/bash-completion/completions/pickerctl"),
                           ("zsh", "/share/zsh/site-functions/_pickerctl"),
                           ("fish", "/share/fish/vendor_completions.d/pickerctl.fish")]
        for (shell, path) in completions {
            let installed = (try? String(contentsOfFile: root + path, encoding: .utf8)) ?? ""
            let printed = try await runProcess(TestEnvironment.pickerctl.path, ["completions", shell]).stdoutText
            #expect(!installed.isEmpty && installed == printed, "\(shell) completion at \(path)")
        }
        // The bash one loads in a real bash and registers pickerctl.
        let bash = try await runProcess("/bin/bash", ["--norc", "-c", "source '\(root)/share/bash-completion/completions/pickerctl' && complete -p pickerctl"])
        #expect(bash.exitCode == 0 && bash.stdoutText.contains("pickerctl"), "\(bash)")
    }
}
