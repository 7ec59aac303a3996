import Foundation
import Testing

/// picker.nvim in a real kitty (Debian's 0.26, software OpenGL under Xvfb) with `setup{ kitty = true }`:
/// the current photo placed over the image pane with the kitty graphics protocol, as a kitty user sees
/// it: the screenshot must hold the daemon's PNG at the cells the symbols took.
@Suite(.timeLimit(.minutes(10)), .enabled(if: NvimServer.kittyPresent, "needs kitty, nvim, Xvfb, xwd, xwdtopnm and Pillow (scripts/install-deps.sh)"))
struct NvimKittyTests {
    /// The kitty window, in pixels: its cell size is these over Neovim's columns and lines.
    static let window = (width: 1200, height: 760)

    @Test func theCurrentPhotoIsPlacedOverTheImagePaneAtTheSymbolsCells() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Trip", as: "falls.jpg")
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "kt", "--width", "800", "--height", "600").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Trip", session: "kt").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "falls.jpg", session: "kt").exitCode == 0)
        let dir = daemon.directory
        let home = try Self.nvimHome(in: dir, socket: daemon.socketPath)
        let x = try await XServer(directory: dir, screen: "1280x800x24")
        defer { x.stop() }
        let nvim = NvimServer(path: dir.appendingPathComponent("nvim.sock").path)
        let kitty = try spawnProcess(findExecutable("kitty") ?? "kitty",
                                     ["--config", "NONE", "-o", "initial_window_width=\(Self.window.width)",
                                      "-o", "initial_window_height=\(Self.window.height)",
                                      "nvim", "-n", "-i", "NONE", "--listen", nvim.path],
                                     environment: ["PATH": "/usr/bin:/bin", "DISPLAY": x.display, "HOME": home.path,
                                                   "LIBGL_ALWAYS_SOFTWARE": "1"],
                                     stdin: "/dev/null", stdout: dir.appendingPathComponent("kitty.log").path,
                                     stderr: dir.appendingPathComponent("kitty.log").path)
        defer {
            _ = try? runProcessBlocking(nvim.executable, ["--server", nvim.path, "--remote-send", "<C-\\><C-n>:qa!<CR>"])
            kill(kitty, SIGTERM)
            _ = waitForExit(kitty)
        }
        try await nvim.waitUntilListening()
        try await nvim.send(":PickerOpen<CR>")

        var match: [String: Any] = [:]
        var expected = (x: 0, y: 0)
        let deadline = Date().addingTimeInterval(180)  // screenmatch takes seconds a try on a loaded machine
        while Date() < deadline {
            await pause(500_000)
            guard let pane = try await nvim.imagePane() else { continue }
            // The cells the daemon's symbols take in that pane: the plugin places the PNG over them.
            let symbols = try await daemon.ctl("get-image", "--format", "symbols", "--cells", "\(pane.width)x\(pane.height)", session: "kt")
            let lines = ScreenCells(symbols.stdoutText.trimmingCharacters(in: .newlines)).lines
            let cell = (width: Self.window.width / pane.columns, height: Self.window.height / pane.lines)
            let fit = "\(Array(lines.first ?? "").count * cell.width)x\(lines.count * cell.height)"
            // The text area is one cell inside the float's border.
            expected = (x: (pane.column + 1) * cell.width, y: (pane.row + 1) * cell.height)
            let reference = dir.appendingPathComponent("reference.png").path
            let shot = dir.appendingPathComponent("screen.ppm").path
            guard try await daemon.ctl("get-image", "-o", reference, session: "kt").exitCode == 0,
                  try await runProcess("/bin/sh", ["-c", "xwd -root -silent -display \(x.display) | xwdtopnm > '\(shot)' 2>/dev/null"]).exitCode == 0 else { continue }
            let r = try await runProcess(TestEnvironment.python, [TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/screenmatch.py").path,
                                                                   shot, reference, "--fit", fit])
            match = (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
            if let mad = match["mad"] as? Double, let baseline = match["baseline"] as? Double, mad < baseline / 10 { break }
        }
        // The photo itself, not the coloured symbols beneath it (measured: the PNG 4.7, the symbols alone 16.6, a flat colour 83).
        let mad = match["mad"] as? Double ?? 999, baseline = match["baseline"] as? Double ?? 0
        #expect(mad < baseline / 10, "the screen holds the daemon's PNG at the symbols' cells: \(match)")
        let at = (x: match["x"] as? Int ?? -1, y: match["y"] as? Int ?? -1)
        #expect(abs(at.x - expected.x) <= 12 && abs(at.y - expected.y) <= 20, "placed at the image pane's first cell \(expected): \(match)")
    }

    /// A HOME whose init.lua loads this checkout's plugin, on the test daemon, with kitty placement on.
    static func nvimHome(in dir: URL, socket: String) throws -> URL {
        let home = dir.appendingPathComponent("home")
        let config = home.appendingPathComponent(".config/nvim")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let plugin = TestEnvironment.packageRoot.appendingPathComponent("clients/nvim").path
        try """
        vim.opt.rtp:prepend('\(plugin)')
        require('picker').setup{ socket = '\(socket)', session = 'kt', kitty = true }
        """.write(to: config.appendingPathComponent("init.lua"), atomically: true, encoding: .utf8)
        return home
    }
}

/// A Neovim driven from outside through its `--listen` socket, as a user's keys would.
struct NvimServer {
    /// What the kitty test needs besides this: Xvfb and the screenshot tools.
    static let kittyPresent = XServer.toolsPresent && findExecutable("kitty") != nil && findExecutable("nvim") != nil
    let path: String
    let executable = findExecutable("nvim") ?? "nvim"

    func waitUntilListening() async throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: path), try await expression("1") == "1" { return }
            await pause(250_000)
        }
        throw TmuxError.failed("nvim did not listen on \(path) within 60 s")
    }

    func send(_ keys: String) async throws {
        _ = try await runProcess(executable, ["--server", path, "--remote-send", keys])
    }

    /// Neovim 0.7 prints a `--remote-expr` result on stderr.
    func expression(_ expr: String) async throws -> String {
        let r = try await runProcess(executable, ["--server", path, "--remote-expr", expr])
        return (r.stdoutText + r.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The picker's image pane: its float's corner (0-based screen row and column), its size in cells,
    /// and the screen's columns and lines; nil while it is not open.
    func imagePane() async throws -> (row: Int, column: Int, width: Int, height: Int, columns: Int, lines: Int)? {
        let lua = "(function() local w = vim.fn.bufwinid('picker://image'); if w < 0 then return '' end; "
            + "local p = vim.api.nvim_win_get_position(w); return table.concat({ p[1], p[2], vim.api.nvim_win_get_width(w), "
            + "vim.api.nvim_win_get_height(w), vim.o.columns, vim.o.lines }, ' ') end)()"
        let values = try await expression("luaeval(\"\(lua)\")").split(separator: " ").compactMap { Int($0) }
        guard values.count == 6, values[4] > 0, values[5] > 0 else { return nil }
        return (values[0], values[1], values[2], values[3], values[4], values[5])
    }
}
