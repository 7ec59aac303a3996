"""The table of `make bench-library`: figures measured by bench_library.py (library_measure.py) next
to issue 11's targets.

`table(r, n)` takes the dict of figures bench_library.py collected (ms, KiB, counts) and the
library size, and returns one Markdown table: figure | measured | target | met | floor.
Figures measured over several rounds show the median and [min–max]; "met" judges the median,
except library events, where it judges the worst round.
Targets for 1,000,000 photos are the issue's big-run ones (restart ≤ 2 s, RSS ≤ 400 MB).
"""
import statistics

EVENT_TIMEOUT = 10.0  # seconds to wait for a library event before calling it missed
IDLE_SECONDS = 5.0
BIG_RUN = 1_000_000


def fmt_ms(v):
    if v is None or v != v:
        return "–"
    return f"{v:,.0f}" if v >= 100 else f"{v:.1f}"


def fmt_mb(kib):
    return f"{kib / 1024:.1f} MB"


def fmt_rounds(r, key):
    """The median of the rounds in ms, with their range when there was more than one."""
    got = [v for v in r.get(key + "_all", []) if v is not None]
    if len(got) < 2:
        return f"{fmt_ms(r.get(key))} ms"
    return f"{fmt_ms(r[key])} ms [{fmt_ms(min(got))}–{fmt_ms(max(got))}]"


def at_most(v, bound):
    """True/False when v was measured, None (shown as –) when it was not."""
    return None if v is None or v != v else v <= bound


class Rows:
    def __init__(self):
        self.rows = []

    def add(self, figure, value, target="–", met=None, floor=""):
        self.rows.append((figure, value, target, {True: "yes", False: "**no**", None: "–"}[met], floor))

    def markdown(self):
        lines = ["| figure | measured | target | met | floor (same run) |", "|---|---|---|---|---|"]
        return "\n".join(lines + ["| " + " | ".join(cells) + " |" for cells in self.rows])


def start_and_scan(t, r):
    t.add("daemon start → socket answers (pickerctl ping from spawn)",
          f"{fmt_rounds(r, 'socket')} (empty library: {fmt_ms(r['socket_empty'])} ms)",
          "≤ 100 ms", at_most(r["socket"], 100))
    c_floor, scan, log_scan = r["floor_c_list"], r["scan_wait"], r["scan_log"]
    t.add("first full scan: start → `library --wait` returns (daemon CPU user+sys)",
          f"{fmt_rounds(r, 'scan_wait')} = {scan / c_floor:.2f}x C floor (CPU {fmt_rounds(r, 'scan_cpu')})"
          + (f"; log's \"scanned … ms\": {fmt_rounds(r, 'scan_log')} = {log_scan / c_floor:.2f}x"
             if log_scan is not None else ""),
          "≤ 1.5x C floor", at_most(scan / c_floor, 1.5),
          f"C open+pread 64 KiB, 1 thread: {fmt_ms(c_floor)} ms from a list, "
          f"{fmt_ms(r['floor_c_walk'])} ms with readdir")
    for k in ("status", "select-photo"):
        count = r[f"cheap_{k}_n"]
        t.add(f"`{k}` p99 during the first scan (one client, one request every ~5 ms)",
              f"{fmt_ms(r[f'cheap_{k}_p99'])} ms (n={count})" if count
              else "– (the scan was over before the first request)",
              "≤ 10 ms", at_most(r[f"cheap_{k}_p99"], 10) if count else None)


def restart(t, r, n):
    index = (f"index {r['index_files']} file(s), {r['index_bytes'] / 1e6:.1f} MB" if r["index_files"]
             else "no index written: a full rescan")
    bound = 2000 if n >= BIG_RUN else 300
    stat_walk = f"stat-only walk: {fmt_ms(r['floor_stat'])} ms"
    t.add(f"restart → first `albums` with all {n:,} photos ({index})",
          f"{fmt_rounds(r, 'restart_albums')} (socket {fmt_rounds(r, 'restart_socket')})",
          f"≤ {bound:,} ms", at_most(r["restart_albums"], bound), stat_walk)
    verify = r["restart_scan_log"]
    t.add("restart: background verification (log's \"scanned … ms\")" if r["index_files"]
          else "restart without an index: the full rescan (log's \"scanned … ms\")",
          (f"{fmt_rounds(r, 'restart_scan_log')} = {verify / r['floor_stat']:.2f}x stat walk" if verify else "–")
          + f"; `library --wait` returned {fmt_rounds(r, 'restart_ready')} after start",
          "≤ 2x stat-only walk", at_most(verify / r["floor_stat"], 2) if verify else None, stat_walk)


def live_and_idle(t, r):
    for k, what in (("event_added", "a photo copied in"), ("event_removed", "a photo deleted")):
        got = [v for v in r[k] if v is not None]
        missed = len(r[k]) - len(got)
        t.add(f"{what} → `library_changes` in `watch --library --json` (from close / unlink)",
              f"median {fmt_ms(statistics.median(got) if got else None)} ms, "
              f"max {fmt_ms(max(got) if got else None)} ms ({len(r[k])} rounds"
              + (f", **{missed} with no event in {EVENT_TIMEOUT:.0f} s**)" if missed else ")"),
              "≤ 1,000 ms", False if missed or not got else at_most(max(got), 1000))
    t.add(f"first request (`albums`) after {IDLE_SECONDS:.0f} s idle, open connection",
          f"{fmt_ms(r['idle_albums'])} ms (next one {fmt_ms(r['busy_albums'])} ms; "
          f"a whole `pickerctl status` after idle {fmt_ms(r['idle_pickerctl_status'])} ms)",
          "≤ 10 ms", at_most(r["idle_albums"], 10))


def memory_and_listings(t, r, n):
    delta = r["rss_after_scan_kib"] - r["rss_base_kib"]
    per_photo = delta * 1024 / n
    t.add("RSS after the scan − RSS on an empty library",
          f"{fmt_mb(delta)} = {per_photo:,.0f} B a photo (base {fmt_mb(r['rss_base_kib'])}, "
          f"peak during scan {fmt_mb(r['hwm_scan_kib'])})",
          *(("≤ 400 MB", at_most(delta / 1024, 400)) if n >= BIG_RUN else ("≤ 300 B a photo", at_most(per_photo, 300))))
    paging = "paged by pickerctl" if r["paging"] else "one frame: no paging in this pickerctl"
    t.add(f"peak RSS while listing All Photos (`photos --json`, {paging}), above RSS before",
          fmt_mb(r["listing_peak_kib"]), "≤ 20 MB", at_most(r["listing_peak_kib"] / 1024, 20))
    t.add("`photos` of All Photos (text)", f"{fmt_ms(r['photos_text_ms'])} ms, {r['photos_text_bytes'] / 1e6:.1f} MB")
    t.add("`photos --json` of All Photos",
          f"{fmt_ms(r['photos_json_ms'])} ms, {r['photos_json_bytes'] / 1e6:.1f} MB"
          + ("" if r["photos_json_rc"] == 0 else f" (exit {r['photos_json_rc']})"))
    if r["paging"]:
        t.add("`photos --offset 0 --limit 100`, one page", f"{fmt_ms(r.get('photos_page_ms'))} ms")


def floors(t, r):
    def spread(key):
        lo, hi = r[key + "_range"]
        return f"{fmt_ms(r[key])} ms ({fmt_ms(lo)}–{fmt_ms(hi)})"

    t.add("floor: `find` of the names, median of 5 (min–max)", spread("floor_find"))
    t.add("floor: stat-only walk (`find -printf '%s %T@'`)", spread("floor_stat"))
    t.add("floor: C open + pread 64 KiB of every file, 1 thread, from a list", spread("floor_c_list"))
    t.add("floor: the same with the readdir walk", spread("floor_c_walk"))


def table(r, n):
    t = Rows()
    start_and_scan(t, r)
    restart(t, r, n)
    live_and_idle(t, r)
    memory_and_listings(t, r, n)
    floors(t, r)
    return t.markdown()
