import Foundation
import Testing

/// A daemon stopped while its render threads still work must exit 0, not die in a C library's
/// exit-time cleanup. CI once saw pickerd end with SIGSEGV in `pthread_rwlock_rdlock` on a
/// pk-worker thread: exit() ran OpenSSL's atexit cleanup while a prefetch hashed a thumbnail name.
/// The window is microseconds in pickerd, so the real `pk_md5.c` is driven where it is wide: a
/// small program exits while two threads do nothing but hash (30 of 40 runs crashed
/// before the fix).
@Suite struct ExitRaceTests {
    static let compiler = findExecutable("clang") ?? findExecutable("cc")

    @Test(.enabled(if: compiler != nil, "needs a C compiler"))
    func exitWhileThreadsHashWithPkMD5IsClean() async throws {
        let root = TestEnvironment.packageRoot
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pk-md5-exit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let program = dir.appendingPathComponent("md5_exit_race").path
        let built = try await runProcess(Self.compiler ?? "cc", [
            "-O1", "-I", root.appendingPathComponent("Sources/CPickerCodecs/include").path,
            root.appendingPathComponent("Tests/tools/md5_exit_race.c").path,
            root.appendingPathComponent("Sources/CPickerCodecs/pk_md5.c").path,
            "-lcrypto", "-lpthread", "-o", program])
        try #require(built.exitCode == 0, "\(built)")
        var codes: [Int32] = []
        for _ in 0..<40 { codes.append(try await runProcess(program, []).exitCode) }
        #expect(codes.allSatisfy { $0 == 0 }, "exit statuses: \(codes)")
    }
}
