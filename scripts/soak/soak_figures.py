"""The soak's figures: percentiles, milliseconds, a process's /proc status (RSS, threads, fds) and its workers'."""
import os


def percentile(values, q):
    if not values:
        return None
    s = sorted(values)
    k = min(len(s) - 1, max(0, int(round(q / 100.0 * (len(s) - 1)))))
    return s[k]


def ms(x):
    return None if x is None else round(x * 1000, 2)


def proc_status(pid):
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM", "VmSize", "Threads"):
                    out[k] = int(v.split()[0])
        out["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
    except (OSError, ValueError):
        pass
    return out


def workers_status(pid):
    """The decoder workers (the daemon's child processes): how many, their VmRSS and threads summed."""
    out = {"workers": 0, "workers_rss": 0, "workers_threads": 0}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as f:
                fields = dict(line.partition(":")[::2] for line in f)
        except OSError:
            continue
        if fields.get("PPid", "").strip() != str(pid):
            continue
        out["workers"] += 1
        out["workers_rss"] += int((fields.get("VmRSS") or "0 kB").split()[0])
        out["workers_threads"] += int((fields.get("Threads") or "0").strip())
    return out
