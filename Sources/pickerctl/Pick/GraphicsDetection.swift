import PickerProtocol

/// What the terminal and the environment told us, and the back-end that follows from it.
struct GraphicsDetection {
    /// The kitty graphics query (`a=q`, a 1x1 RGB pixel): a kitty-protocol terminal answers `OK`.
    static let kittyQuery = "\u{1b}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1b}\\"
    /// Window and cell size in pixels (xterm's CSI 14 t / CSI 16 t).
    static let sizeQueries = "\u{1b}[14t\u{1b}[16t"
    /// XTSMGRAPHICS, read the current sixel geometry: the largest picture the terminal will draw now
    /// (xterm draws nothing of a larger one; its default maximum is 1000x1000, less in a smaller window).
    static let sixelGeometryQuery = "\u{1b}[?2;1;0S"
    /// Primary device attributes: every terminal answers, so its reply ends the detection.
    static let deviceAttributesQuery = "\u{1b}[c"

    var kittyAnswered = false
    var deviceAttributes: [Int]? = nil
    var windowPixels: (width: Int, height: Int)? = nil
    var cellPixels: CellPixels? = nil
    /// The terminal's answer to `sixelGeometryQuery`; nil when it has none (no limit is known then).
    var sixelGeometry: PixelSize? = nil

    /// Takes the replies; other input met during detection is dropped.
    mutating func note(_ input: TerminalInput) {
        switch input {
        case .kittyGraphicsReply(let ok): kittyAnswered = kittyAnswered || ok
        case .deviceAttributes(let attributes): deviceAttributes = attributes
        case let .windowPixels(width, height): windowPixels = (width, height)
        case let .cellPixels(width, height): cellPixels = CellPixels(width: width, height: height)
        case let .sixelGeometry(width, height): sixelGeometry = PixelSize(width: width, height: height)
        default: break
        }
    }

    var finished: Bool { deviceAttributes != nil }

    /// The back-end: `--graphics` when given; else kitty if it answered, sixel if DA1 lists 4 (in tmux, which
    /// answers DA1 itself: if tmux says the outer terminal has sixel and passthrough is on), iTerm2 by
    /// `TERM_PROGRAM`/`KONSOLE_VERSION`, else symbols when the daemon renders them, else none.
    func choose(requested: GraphicsKind?, environment: [String: String], tmuxOuter: TmuxOuterTerminal? = nil,
                daemonSupports: (GraphicsKind) -> Bool) -> GraphicsKind {
        if let requested { return requested }
        let inTmux = environment["TMUX"] != nil
        if kittyAnswered { return .kitty }
        if inTmux, tmuxOuter?.showsSixel == true, daemonSupports(.sixel) { return .sixel }
        if !inTmux {
            if deviceAttributes?.contains(4) == true, daemonSupports(.sixel) { return .sixel }
            let program = environment["TERM_PROGRAM"] ?? ""
            if program == "iTerm.app" || program == "WezTerm" || environment["KONSOLE_VERSION"] != nil { return .iterm }
        }
        return daemonSupports(.symbols) ? .symbols : .none
    }

    static func backend(_ kind: GraphicsKind, inTmux: Bool, symbols: SymbolClass = .block) -> GraphicsBackend {
        switch kind {
        case .kitty: return KittyGraphics(passthrough: passthrough(inTmux))
        case .iterm: return ITermGraphics()
        case .sixel: return SixelGraphics(passthrough: passthrough(inTmux))
        case .symbols: return SymbolGraphics(symbols: symbols)
        case .none: return TextOnlyGraphics()
        }
    }

    private static func passthrough(_ inTmux: Bool) -> Passthrough {
        Passthrough(enabled: inTmux, paneOrigin: inTmux ? Passthrough.tmuxPaneOrigin() : nil)
    }
}
