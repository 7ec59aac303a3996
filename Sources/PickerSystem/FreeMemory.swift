import CPickerSys

/// The C library's allocator keeps freed memory for reuse; after a burst of temporary allocations
/// (a library scan, a load spike) this gives it back to the system (`malloc_trim(0)`).
public enum FreeMemory {
    public static func returnToSystem() { pk_release_free_memory() }
}
