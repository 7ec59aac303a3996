import Foundation
import Testing

/// contrib/systemd/pickerd.service: sandboxed and bounded (issue 21 #12), and a unit systemd accepts.
@Suite(.timeLimit(.minutes(15))) struct SystemdUnitTests {
    static let analyze = "/usr/bin/systemd-analyze"
    let unit: String

    init() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        unit = try String(contentsOf: repo.appendingPathComponent("contrib/systemd/pickerd.service"), encoding: .utf8)
    }

    @Test func theUnitIsHardened() {
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for line in ["NoNewPrivileges=yes", "ProtectSystem=strict", "RestrictAddressFamilies=AF_UNIX", "StateDirectory=pickerd",
                     "CacheDirectory=pickerd thumbnails", "SystemCallFilter=@system-service", "StartLimitBurst=5"] {
            #expect(lines.contains(line), "missing \(line)")
        }
        for key in ["MemoryMax=", "MemoryHigh=", "TasksMax=", "RestartSec=", "StartLimitIntervalSec="] {
            #expect(lines.contains { $0.hasPrefix(key) }, "missing \(key)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: analyze)))
    func systemdAnalyzeVerifiesItAsAUserUnit() throws {
        let dir = URL(fileURLWithPath: "/tmp/pkunit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        chmod(dir.path, 0o700)
        let filled = unit.replacingOccurrences(of: "@BINDIR@/pickerd", with: "/bin/true")
            .replacingOccurrences(of: "@DOCDIR@", with: "/usr/share/doc/pickerd")
        let path = dir.appendingPathComponent("pickerd.service").path
        try Data(filled.utf8).write(to: URL(fileURLWithPath: path))
        let env = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": dir.path, "HOME": dir.path]
        let r = try runProcess(Self.analyze, ["verify", "--user", path], environment: env)
        #expect(r.exitCode == 0 && r.stderr.isEmpty && r.stdout.isEmpty, "\(r)")
    }
}
