"""The soak's figures: percentiles, milliseconds, a process's /proc status (RSS, threads, fds) and its workers'."""
import glob
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
    """The decoder workers (the daemon's children, listed per spawning thread): how many, and
    their VmRSS and threads summed."""
    children = set()
    for task in glob.glob(f"/proc/{pid}/task/*/children"):
        try:
            with open(task) as f:
                children.update(f.read().split())
        except OSError:
            pass
    statuses = [proc_status(child) for child in children]
    return {"workers": len(statuses),
            "workers_rss": sum(st.get("VmRSS", 0) for st in statuses),
            "workers_threads": sum(st.get("Threads", 0) for st in statuses)}
