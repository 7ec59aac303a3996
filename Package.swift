// swift-tools-version:6.0
import PackageDescription

// C code is compiled with optimisation even in debug builds: the pixel kernels
// run ~25x slower at -O0 and the end-to-end tests push real camera photos through them.
let optimisedC: [CSetting] = [.unsafeFlags(["-O2"])]

let package = Package(
    name: "pickerd",
    products: [
        .executable(name: "pickerd", targets: ["pickerd"]),
        .executable(name: "pickerctl", targets: ["pickerctl"]),
        .executable(name: "pickerd-portal", targets: ["pickerd-portal"]),
    ],
    targets: [
        // Wire format: pure Swift, standard library only.
        .target(name: "PickerProtocol"),

        // libjpeg / libpng / libwebp / libheif / lcms2 / giflib / libjxl / LibRaw calls (incl. every setjmp) and pixel kernels.
        .target(
            name: "CPickerCodecs",
            cSettings: optimisedC,
            linkerSettings: [
                .linkedLibrary("jpeg"), .linkedLibrary("png16"),
                .linkedLibrary("webp"), .linkedLibrary("webpdemux"), .linkedLibrary("m"), .linkedLibrary("crypto"),
                // HEIC/AVIF: Debian libheif-dev (headers under the multiarch include folder).
                .linkedLibrary("heif"),
                // Colour management (embedded ICC profiles to sRGB): Debian liblcms2-dev.
                .linkedLibrary("lcms2"),
                // GIF (Debian libgif-dev), JPEG XL (libjxl-dev), camera RAW developed by LibRaw
                // (libraw-dev; raw_r is its thread-safe build: decodes run on several workers).
                .linkedLibrary("gif"), .linkedLibrary("jxl"), .linkedLibrary("jxl_threads"), .linkedLibrary("raw_r"),
            ]
        ),
        // accept4, SO_PEERCRED, epoll, eventfd: what Glibc does not import.
        .target(name: "CPickerSys"),
        // The one place for syscalls: Errno, EINTR retry, Unix sockets, whole reads and writes.
        .target(name: "PickerSystem", dependencies: ["CPickerSys"]),

        // The library index (SQLite, WAL): Debian's libsqlite3-dev.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Terminal pictures (sixel, Unicode symbols): Debian's libchafa-dev (pulls GLib's headers).
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        // The chafa calls behind a plain-C header, so Swift never imports GLib.
        .target(name: "CPickerTerminal", dependencies: ["CChafa"], cSettings: optimisedC),

        // The decoder worker's plumbing: SCM_RIGHTS, sealed memfds, spawning, limits, seccomp-BPF.
        .target(name: "CPickerSandbox", cSettings: optimisedC, linkerSettings: [.linkedLibrary("heif")]),

        .target(name: "PickerEngine",
                dependencies: ["PickerProtocol", "PickerSystem", "CPickerCodecs", "CSQLite", "CPickerTerminal",
                               "CPickerSandbox"]),
        .target(name: "PickerDaemon", dependencies: ["PickerEngine", "PickerProtocol", "PickerSystem", "CPickerSys"]),
        .target(name: "PickerClient", dependencies: ["PickerProtocol", "PickerSystem"]),

        .executableTarget(name: "pickerd", dependencies: ["PickerDaemon"]),
        // Release pickerctl is one static executable: no dynamic loading halves its start-up (bench target 6).
        // The linker notes glibc's dlopen caveat, which does not apply: pickerctl never calls dlopen.
        .executableTarget(
            name: "pickerctl", dependencies: ["PickerClient", "PickerProtocol", "PickerSystem", "PickerPortalRules"],
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(configuration: .release))]
        ),

        // The desktop's photo chooser (issue 26): sd-bus (Debian's libsystemd-dev) behind a small C target
        // for the vtables; the FileChooser logic in Swift, a client of pickerd like pickerctl.
        // The frontend's rules for portal files and backends, shared by `pickerctl portal` and pickerd-portal
        // (pure Swift: pickerctl links no sd-bus).
        .target(name: "PickerPortalRules", dependencies: ["PickerSystem"]),
        .systemLibrary(name: "CSDBus", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // GLib's GBookmarkFile: pickerd-portal adds answered picks to recently-used.xbel as GTK does.
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .target(name: "CPickerBus", dependencies: ["CSDBus"]),
        .target(name: "PickerPortal", dependencies: ["CGLib", "CPickerBus", "CSDBus", "PickerClient", "PickerPortalRules", "PickerProtocol", "PickerSystem"]),
        .executableTarget(name: "pickerd-portal", dependencies: ["PickerPortal"]),

        // Test support shared by the test targets: the corpus finder and a child-process runner.
        .target(name: "PickerTestSupport", path: "Tests/PickerTestSupport"),
        // A child process for engine tests that must run alone (VmPeak) or as another uid (setpriv).
        .executableTarget(name: "picker-test-probe", dependencies: ["PickerEngine", "PickerProtocol"],
                          path: "Tests/PickerTestProbe"),

        .testTarget(name: "PickerProtocolTests", dependencies: ["PickerProtocol"]),
        .testTarget(name: "PickerEngineTests",
                    dependencies: ["PickerEngine", "PickerProtocol", "PickerSystem", "PickerTestSupport"]),
        .testTarget(name: "PickerDaemonTests", dependencies: ["PickerDaemon", "PickerProtocol"]),
        // pick's state machine, input parser and layout, without a terminal (@testable import pickerctl).
        .testTarget(name: "PickTests", dependencies: ["pickerctl", "PickerPortalRules", "PickerProtocol", "PickerSystem"]),
        .testTarget(name: "PickerPortalTests", dependencies: ["PickerPortal", "PickerPortalRules", "PickerProtocol"]),
        .testTarget(name: "EndToEndTests",
                    dependencies: ["PickerClient", "PickerProtocol", "PickerSystem", "PickerTestSupport"]),
    ]
)
