/// The classes of work the pool schedules, highest priority first. Which request belongs to which
/// is declared in one table (`RequestClass` in PickerDaemon).
public enum WorkClass: Sendable, Equatable {
    /// Session and library requests that need no pixels: never queued behind pixel work
    /// (a lane of their own, and strict priority on the general workers).
    case interactive
    /// Decodes, grids, previews: round-robin across fairness keys (connections), so one client with
    /// many pipelined requests cannot starve another.
    case image
    /// Prefetch and warming: only when nothing else waits; a running job's cancel flag is raised the
    /// moment foreground work waits for a worker, and it is dropped.
    case background
}
