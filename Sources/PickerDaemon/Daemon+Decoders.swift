import PickerEngine
import PickerSystem

/// The daemon's decoder processes: every decode runs in a pool of sandboxed workers
/// (`SandboxedDecoder`), started from this same executable in its `--decoder-worker` mode.
extension Daemon {
    /// The pool's settings, or nil for `--decode-in-process`.
    static func decoderSettings(_ config: DaemonConfiguration) -> SandboxedDecoder.Settings? {
        guard !config.decodeInProcess else {
            Log.info("decoding in process (--decode-in-process): decoders are not sandboxed")
            return nil
        }
        // The kernel's link to the running executable: the same program even when the file was replaced.
        var settings = SandboxedDecoder.Settings(executable: "/proc/self/exe", workers: config.workers,
                                                 maxPhotoBytes: EngineConfiguration.defaultMaxPhotoBytes)
        settings.baseSeconds = Double(config.decodeSeconds)
        #if DEBUG
        settings.misbehaviourEnabled = Environment.current["PICKERD_TEST_MISBEHAVE"] == "1"
        #endif
        return settings
    }

    /// `pickerd --decoder-worker`: one sandboxed decoder process of a daemon.
    public static func runDecoderWorker() -> Int32 {
        DecoderWorker.run()
    }
}
