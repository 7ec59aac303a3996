import CPickerSys

/// Names the calling thread (`pthread_setname_np`; at most 15 bytes show), so `top -H` and
/// /proc/PID/task/*/comm tell the daemon's threads apart.
public enum ThreadName {
    public static func setCurrent(_ name: String) {
        pk_set_thread_name(String(decoding: name.utf8.prefix(15), as: UTF8.self))
    }
}
