import Foundation

/// The library the portal suites serve: album Kyoto with a.jpg, b.jpg and c.png (a JPEG filter and a
/// PNG filter each let something through), and with `home` an album Home with d.jpg.
struct PortalLibrary {
    let library: TemporaryLibrary

    /// - Parameter kyoto: the Kyoto photos wanted (a subset of a.jpg, b.jpg, c.png).
    init(kyoto names: Set<String> = ["a.jpg", "b.jpg", "c.png"], home: Bool = false) async throws {
        library = try await TemporaryLibrary()
        let jpegs = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation")
        let sources = ["a.jpg": jpegs.appendingPathComponent("Landscape_1.jpg"), "b.jpg": jpegs.appendingPathComponent("Landscape_3.jpg"),
                       "c.png": TestEnvironment.corpus.root.appendingPathComponent("pngsuite/basn2c08.png")]
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) where names.contains(name) {
            try library.add(source, album: "Kyoto", as: name)
        }
        if home { try library.add(jpegs.appendingPathComponent("Landscape_8.jpg"), album: "Home", as: "d.jpg") }
    }

    var url: URL { library.url }

    /// The Kyoto folder as pickerd-portal answers with it (symlinks resolved, as the daemon's root is).
    var kyoto: String { library.url.appendingPathComponent("Kyoto").resolvingSymlinksInPath().path }

    func uri(_ name: String) -> String { "file://" + kyoto + "/" + name }
}
