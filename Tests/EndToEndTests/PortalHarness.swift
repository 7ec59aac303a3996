import Foundation

/// pickerd-portal on a private session bus: a real `dbus-daemon`, the built `pickerd-portal`
/// serving a `LiveDaemon`, its terminal a tmux server (`tmux new-window`), so a test drives the
/// pick it opens by keys. Clients are `Tests/tools/portal_client.py` processes (python3-dbus).
final class PortalHarness: @unchecked Sendable {
    static let dbusDaemon = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var available: Bool { dbusDaemon != nil && findExecutable("tmux") != nil && pythonHasDBus }
    static let pythonHasDBus: Bool = (try? runProcessBlocking(TestEnvironment.python, ["-c", "import dbus, gi"]).exitCode) == 0

    let directory: URL
    let daemon: LiveDaemon
    var busAddress: String { "unix:path=" + directory.appendingPathComponent("bus").path }
    var tmuxSocket: String { directory.appendingPathComponent("tmux.sock").path }
    var portalLog: String { (try? String(contentsOf: directory.appendingPathComponent("portal.log"), encoding: .utf8)) ?? "" }
    private var busPID: pid_t = 0
    private var portalPID: pid_t = 0
    private var frontendPID: pid_t = 0
    static let frontend = "/usr/libexec/xdg-desktop-portal"
    private var clients: [pid_t] = []

    /// The environment every process of the harness shares (HOME and the runtime folder inside it).
    var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": directory.path, "DBUS_SESSION_BUS_ADDRESS": busAddress,
         "XDG_RUNTIME_DIR": directory.appendingPathComponent("run").path, "TERM": "xterm-256color",
         // A desktop's UTF-8 locale: pick draws its frame in ASCII without one.
         "LANG": "C.UTF-8"]
    }

    /// The portal files the frontend reads (`XDG_DESKTOP_PORTAL_DIR`); `startFrontend` adds pickerd.portal.
    var portals: URL { directory.appendingPathComponent("portals") }
    /// The bus's D-Bus activation folder (`<servicedir>`).
    var services: URL { directory.appendingPathComponent("services") }

    /// - Parameters:
    ///   - terminal: the portal's terminal (`PICKERD_PORTAL_TERMINAL`); nil: a window of the harness's tmux.
    ///   - portalEnvironment: more variables for pickerd-portal.
    init(daemon: LiveDaemon, terminal: String? = nil, portalEnvironment: [String: String] = [:]) async throws {
        self.daemon = daemon
        directory = URL(fileURLWithPath: "/tmp/pkpo-\(UUID().uuidString.prefix(8))")
        for folder in ["run", "portals", "services"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try startBus()
        // The portal connects once, at start: the bus must be listening first (slow under load).
        let bus = directory.appendingPathComponent("bus").path
        try await waitUntil("the test's bus to listen", within: 90) { FileManager.default.fileExists(atPath: bus) }
        let tmux = try await runProcess(findExecutable("tmux") ?? "tmux",
                                        ["-S", tmuxSocket, "-f", "/dev/null", "new-session", "-d", "-x", "160", "-y", "48", "-s", "main", "sleep", "600"],
                                        environment: environment)
        guard tmux.exitCode == 0 else { throw TmuxError.failed("new-session: \(tmux)") }
        var env = environment
        env["PICKERD_PORTAL_TERMINAL"] = terminal ?? "tmux -S \(tmuxSocket) new-window -t main"
        env.merge(portalEnvironment) { _, given in given }
        let log = directory.appendingPathComponent("portal.log").path
        portalPID = try spawnProcess(TestEnvironment.binDirectory.appendingPathComponent("pickerd-portal").path,
                                     ["--socket", daemon.socketPath], environment: env, stdin: "/dev/null", stdout: log, stderr: log)
        try await waitUntil("pickerd-portal to own its name", within: 90, seen: { self.portalLog }) {
            try await self.gdbus(["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                  "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.impl.portal.desktop.pickerd"])
                .stdoutText.contains("true")
        }
    }

    private func startBus() throws {
        let config = """
            <busconfig><type>session</type><listen>\(busAddress)</listen><auth>EXTERNAL</auth>
            <servicedir>\(services.path)</servicedir>
            <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
            </busconfig>
            """
        let configURL = directory.appendingPathComponent("bus.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("bus.log").path
        busPID = try spawnProcess(Self.dbusDaemon ?? "dbus-daemon", ["--config-file=\(configURL.path)", "--nofork"],
                                  environment: environment, stdin: "/dev/null", stdout: log, stderr: log)
    }

    /// The real xdg-desktop-portal frontend on this bus, reading only our pickerd.portal
    /// (`XDG_DESKTOP_PORTAL_DIR`) and choosing it by `UseIn` (`XDG_CURRENT_DESKTOP=pickerd`, as the
    /// 1.16 drop-in sets it). Returns once it owns org.freedesktop.portal.Desktop (NameHasOwner does
    /// not activate anything; the only activatable services are those a test installs).
    /// - Parameter setup: the command line and variables to start it with instead (what
    ///   `pickerctl portal setup`'s drop-in gives systemd); `-r -v` are appended to the command.
    /// - Parameter desktops: its `XDG_CURRENT_DESKTOP`.
    func startFrontend(setup: (command: [String], environment: [String: String])? = nil, desktops: String = "pickerd") async throws {
        var env = environment
        var command = [Self.frontend]
        if let setup {
            env.merge(setup.environment) { _, given in given }
            command = setup.command
        } else {
            try FileManager.default.copyItem(at: TestEnvironment.packageRoot.appendingPathComponent("contrib/portal/pickerd.portal"),
                                             to: portals.appendingPathComponent("pickerd.portal"))
            env["XDG_DESKTOP_PORTAL_DIR"] = portals.path
            env["XDG_CURRENT_DESKTOP"] = desktops
        }
        let log = directory.appendingPathComponent("frontend.log")
        frontendPID = try spawnProcess(command[0], Array(command.dropFirst()) + ["-r", "-v"], environment: env,
                                       stdin: "/dev/null", stdout: log.path, stderr: log.path)
        try await waitUntil("the frontend to own org.freedesktop.portal.Desktop", within: 60,
                            seen: { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }) {
            try await self.gdbus(["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                  "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.portal.Desktop"])
                .stdoutText.contains("true")
        }
    }

    /// A stand-in for the desktop's own FileChooser backend (`Tests/tools/fake_chooser.py`): its portal
    /// file (`name`.portal, `UseIn=useIn`) in `portals`, its D-Bus activation file in `services`, so the
    /// first call to `org.freedesktop.impl.portal.desktop.<name>` starts it. - Returns: its log of calls.
    func installFakeBackend(name: String = "fakegtk", useIn: String = "fake", hold: Bool = false) async throws -> FakeBackendLog {
        let busName = "org.freedesktop.impl.portal.desktop." + name
        try "[portal]\nDBusName=\(busName)\nInterfaces=org.freedesktop.impl.portal.FileChooser;\nUseIn=\(useIn)\n"
            .write(to: portals.appendingPathComponent(name + ".portal"), atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent(name + ".calls")
        let script = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/fake_chooser.py").path
        try "[D-BUS Service]\nName=\(busName)\nExec=\(TestEnvironment.python) \(script) --name \(busName) --log \(log.path)\(hold ? " --hold" : "")\n"
            .write(to: services.appendingPathComponent(busName + ".service"), atomically: true, encoding: .utf8)
        _ = try await gdbus(["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                             "--method", "org.freedesktop.DBus.ReloadConfig"])
        return FakeBackendLog(url: log)
    }

    var frontendLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("frontend.log"), encoding: .utf8)) ?? ""
    }

    /// gdbus on the private bus.
    func gdbus(_ args: [String]) async throws -> CommandResult {
        try await runProcess("/usr/bin/gdbus", args, environment: environment)
    }

    /// Whether pickerd-portal still runs.
    var portalIsAlive: Bool {
        var code: Int32?
        return portalPID > 0 && isRunning(portalPID, exitCode: &code)
    }

    /// Starts an OpenFile client with `arguments` (portal_client.py's); its answer comes from `answer`.
    func openFile(_ arguments: [String]) throws -> PortalClient {
        let out = directory.appendingPathComponent("client-\(clients.count).json")
        let err = directory.appendingPathComponent("client-\(clients.count).err")
        let script = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/portal_client.py").path
        let pid = try spawnProcess(TestEnvironment.python, [script] + arguments, environment: environment,
                                   stdin: "/dev/null", stdout: out.path, stderr: err.path)
        clients.append(pid)
        return PortalClient(pid: pid, output: out, errors: err)
    }

    // The tmux server: pick runs in its active window.

    func screen() async throws -> String {
        try await runProcess(findExecutable("tmux") ?? "tmux", ["-S", tmuxSocket, "capture-pane", "-p", "-t", "main"]).stdoutText
    }

    func windowCount() async throws -> Int {
        try await runProcess(findExecutable("tmux") ?? "tmux", ["-S", tmuxSocket, "list-windows", "-t", "main"])
            .stdoutText.split(separator: "\n").count
    }

    /// Closes pick's window as a user closing the terminal would (its pane gets SIGHUP).
    func closePickWindow() async throws {
        let r = try await runProcess(findExecutable("tmux") ?? "tmux", ["-S", tmuxSocket, "kill-window", "-t", "main"])
        guard r.exitCode == 0 else { throw TmuxError.failed("kill-window: \(r)") }
    }

    /// Presses `key`, then waits until the screen shows `text`.
    func press(_ key: String, thenShowing text: String) async throws {
        try await press(key)
        var last = ""
        try await waitUntil("'\(text)' after \(key)", within: 60, seen: { last }) {
            last = try await self.screen()
            return last.contains(text)
        }
    }

    func press(_ keys: String...) async throws {
        for key in keys {
            let r = try await runProcess(findExecutable("tmux") ?? "tmux", ["-S", tmuxSocket, "send-keys", "-t", "main", key])
            guard r.exitCode == 0 else { throw TmuxError.failed("send-keys: \(r)") }
        }
    }

    /// Waits until pick is drawn in the tmux window (its key help) and shows `text`.
    @discardableResult
    func waitForPick(showing text: String = "Space pick") async throws -> String {
        var last = ""
        try await waitUntil("the pick window showing '\(text)'", within: 60, seen: { last + "\nportal log:\n" + self.portalLog }) {
            last = try await self.screen()
            return last.contains("Space pick") && last.contains(text)
        }
        return last
    }

    deinit {
        var code: Int32?
        for pid in clients where isRunning(pid, exitCode: &code) {  // an answered client is reaped: its pid is not ours now
            kill(pid, SIGKILL)
            _ = waitForExit(pid)
        }
        for pid in [frontendPID, portalPID] where pid > 0 {
            kill(pid, SIGTERM)
            _ = waitForExit(pid)
        }
        _ = try? runProcessBlocking(findExecutable("tmux") ?? "tmux", ["-S", tmuxSocket, "kill-server"])
        if busPID > 0 {
            kill(busPID, SIGTERM)
            _ = waitForExit(busPID)
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// What the fake backend was called with: one JSON object a line (`method`, `handle`, `options`, … or `close`).
struct FakeBackendLog {
    let url: URL

    var entries: [[String: Any]] {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    var calls: [[String: Any]] { entries.filter { $0["method"] != nil } }
    var closes: [String] { entries.compactMap { $0["close"] as? String } }
}

/// One portal_client.py run: its JSON answer once it ends.
struct PortalClient {
    let pid: pid_t
    let output: URL
    let errors: URL

    /// Waits (at most `seconds`; then the client is killed) for the client to end and reads its answer.
    func answer(within seconds: Double = 60) async throws -> [String: Any] {
        var code: Int32?
        do {
            try await waitUntil("the portal client's answer", within: seconds) { !isRunning(pid, exitCode: &code) }
        } catch {
            kill(pid, SIGKILL)
            _ = waitForExit(pid)
            throw error
        }
        let text = (try? Data(contentsOf: output)) ?? Data()
        guard let object = try? JSONSerialization.jsonObject(with: text) as? [String: Any] else {
            let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw PortalClientError(text: "client exit \(code ?? -1), stdout: \(String(decoding: text, as: UTF8.self)), stderr: \(stderr)")
        }
        return object
    }
}

struct PortalClientError: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}
