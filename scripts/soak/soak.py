#!/usr/bin/env python3
"""pickerd soak: load and faults against a real daemon on loopback, bounded in time.

Starts pickerd (--cache-mb 16) on a temporary library of the camera photos and part of the
test corpus, then for --seconds (default 60) runs at once:
  - 64 clients mixing get-image (a quarter with --no-cache), thumbnails (when the daemon
    has them) and ping, each on its own session: must see zero errors;
  - 4 probe clients pinging every 20 ms: their ping p99 must stay under 50 ms;
  - 20 clients that send half a frame and stall (each must get the daemon's timeout error
    and be closed; they reconnect and stall again);
  - 20 clients that pipeline requests and never read a reply;
  - 8 clients that ask for a large image and disconnect mid-reply;
  - 6 clients reading photos of a "Churn" album while a vandal deletes, truncates,
    overwrites and replaces its files: only clean errors (no_such_photo, corrupt_image, ...)
    are allowed, never internal errors or a dropped connection.
Then: the library folder is removed and recreated while a client keeps asking; a cache fill
(many distinct renders) checks that --cache-mb bounds memory; RSS (VmRSS from
/proc/PID/status) is sampled throughout, compared before/after; SIGTERM must exit 0.

Prints a summary; writes the full figures as JSON (--json-out); exits 1 if a check failed.
Client groups run in separate processes so Python's GIL does not inflate latencies.
Standard library only.
"""
import argparse
import json
import multiprocessing as mp
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from soak_figures import ms, percentile, proc_status, workers_status
from soak_groups import group_abusers, group_faults, group_mixed, group_probe
from soak_phases import phase_cache_fill, phase_library_removed, wait_for_daemon


# ---------------------------------------------------------------- set-up

def find_testdata(arg):
    """--testdata, else as scripts/testcorpus.py finds it (PICKER_TESTDATA, ../shared/testdata, Tests/Fixtures)."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import testcorpus
    folder = testcorpus.find(arg)
    if not os.path.isfile(os.path.join(folder, "manifest.json")):
        sys.exit(f"soak: no test corpus (manifest.json) in {folder}")
    return folder


CAMERA_PHOTOS = 3  # the fewest the groups below ask for by index


def build_library(root, testdata):
    """Stable albums from files the manifest says decode; a Churn album for the vandal."""
    with open(os.path.join(testdata, "manifest.json")) as f:
        files = json.load(f)["files"]
    by_cat = {}
    for e in files:
        if e["expect"] == "decode" and os.path.isfile(os.path.join(testdata, e["path"])):
            by_cat.setdefault(e["category"], []).append(e)
    plan = {"Camera": by_cat.get("camera-photos", []),
            "Orientation": by_cat.get("exif-orientation", []),
            "PNG": by_cat.get("pngsuite", [])[:24],
            "WebP": [e for e in by_cat.get("webp", []) if e["bytes"] < 600_000],
            "Edge": by_cat.get("jpeg-edge", []) + by_cat.get("jpeg-bad-exif", [])}
    albums = {}
    for album, entries in plan.items():
        if not entries:
            continue
        d = os.path.join(root, album)
        os.makedirs(d, exist_ok=True)
        names = []
        for e in entries:
            name = os.path.basename(e["path"])
            shutil.copyfile(os.path.join(testdata, e["path"]), os.path.join(d, name))
            names.append(name)
        # The disconnecters and non-readers ask for photos 1-3 of Camera: a clone without the full corpus
        # (Tests/Fixtures holds one camera photo) gets distinct copies of what it has, not links.
        for k in range(len(names), CAMERA_PHOTOS if album == "Camera" else 0):
            e = entries[k % len(entries)]
            name = f"copy{k}-" + os.path.basename(e["path"])
            shutil.copyfile(os.path.join(testdata, e["path"]), os.path.join(d, name))
            names.append(name)
        albums[album] = sorted(names)
    churn_src = [os.path.join(testdata, e["path"]) for e in
                 by_cat.get("exif-orientation", []) + by_cat.get("jpeg-bad-exif", []) + by_cat.get("pngsuite", [])[:6]]
    d = os.path.join(root, "Churn")
    os.makedirs(d, exist_ok=True)
    for i, src in enumerate(churn_src[:16]):
        shutil.copyfile(src, os.path.join(d, f"c{i:02d}{os.path.splitext(src)[1]}"))
    return albums, churn_src


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pickerd", required=True)
    ap.add_argument("--pickerctl", required=True)
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", 60)))
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--probes", type=int, default=4)
    ap.add_argument("--stallers", type=int, default=20)
    ap.add_argument("--nonreaders", type=int, default=20)
    ap.add_argument("--disconnecters", type=int, default=8)
    ap.add_argument("--churners", type=int, default=6)
    ap.add_argument("--cache-mb", type=int, default=16)
    ap.add_argument("--testdata")
    ap.add_argument("--json-out")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    ap.add_argument("--trim-probe", action="store_true",
                    help="at the end, call malloc_trim(0) in pickerd through gdb and report RSS again (diagnostic)")
    args = ap.parse_args()

    testdata = find_testdata(args.testdata)
    tmp = tempfile.mkdtemp(prefix="pksoak-", dir="/tmp")
    library = os.path.join(tmp, "lib")
    sock = os.path.join(tmp, "s.sock")
    albums, churn_src = build_library(library, testdata)
    thumbs = subprocess.run([args.pickerctl, "thumbnails", "--help"], capture_output=True).returncode == 0

    help_text = subprocess.run([args.pickerd, "--help"], capture_output=True, text=True).stdout
    cmd = [args.pickerd, "--library", library, "--socket", sock, "--state-dir", os.path.join(tmp, "state"),
           "--cache-mb", str(args.cache_mb)]
    if "--no-shared-thumbnails" in help_text:
        cmd.append("--no-shared-thumbnails")
    env = {"PATH": "/usr/bin:/bin", "HOME": tmp, "XDG_CACHE_HOME": os.path.join(tmp, "cache"),
           "PICKERD_LOG_LEVEL": os.environ.get("PICKERD_LOG_LEVEL", "error")}
    log = open(os.path.join(tmp, "pickerd.log"), "wb")
    daemon = subprocess.Popen(cmd, stdout=log, stderr=log, env=env)
    report = {"seconds": args.seconds, "cache_mb": args.cache_mb, "thumbnails": thumbs, "testdata": testdata,
              "albums": {a: len(n) for a, n in albums.items()}, "checks": {}}
    failures = []
    try:
        if not wait_for_daemon(sock, daemon):
            sys.exit(f"soak: pickerd did not start; log in {tmp}/pickerd.log")
        pid = daemon.pid
        report["rss_cold_kib"] = proc_status(pid).get("VmRSS")

        # Warm-up: a few seconds of the same mix with 8 clients (threads, pools, cache filled once).
        q = mp.Queue()
        w = mp.Process(target=group_mixed, args=(sock, 5, 8, 10_000, albums, thumbs, q))
        w.start()
        q.get()
        w.join()
        time.sleep(1)
        report["rss_warm_kib"] = proc_status(pid).get("VmRSS")

        # The soak proper.
        samples = []
        q = mp.Queue()
        half = args.clients // 2
        procs = [mp.Process(target=group_mixed, args=(sock, args.seconds, half, 0, albums, thumbs, q)),
                 mp.Process(target=group_mixed, args=(sock, args.seconds, args.clients - half, half, albums, thumbs, q)),
                 mp.Process(target=group_probe, args=(sock, args.seconds, args.probes, q)),
                 mp.Process(target=group_abusers, args=(sock, args.seconds, args.stallers, args.nonreaders, q)),
                 mp.Process(target=group_faults, args=(sock, args.seconds, args.disconnecters, args.churners,
                                                       library, churn_src, q))]
        t_start = time.monotonic()
        for p in procs:
            p.start()
        results = {}
        while len(results) < len(procs):
            try:
                kind, st = q.get(timeout=1)
                if kind == "mixed" and "mixed" in results:
                    m = results["mixed"]
                    m["requests"] += st["requests"]
                    m["errors"] += st["errors"]
                    m["bytes"] += st["bytes"]
                    m["no_cache"] += st["no_cache"]
                    for k in m["lat"]:
                        m["lat"][k] += st["lat"][k]
                    results["mixed#2"] = True
                else:
                    results[kind] = st
            except Exception:
                pass
            s = proc_status(pid)
            s.update(workers_status(pid))
            s["t"] = round(time.monotonic() - t_start, 1)
            samples.append(s)
            if daemon.poll() is not None:
                failures.append(f"pickerd exited during the soak (status {daemon.returncode})")
                break
            if time.monotonic() - t_start > args.seconds + 120:
                failures.append("client groups did not finish in time")
                break
        for p in procs:
            p.join(timeout=30)
        elapsed = time.monotonic() - t_start
        time.sleep(2)
        report["rss_after_load_kib"] = proc_status(pid).get("VmRSS")
        report["peak"] = {"rss_kib": max((s.get("VmRSS", 0) for s in samples), default=0),
                          "threads": max((s.get("Threads", 0) for s in samples), default=0),
                          "fds": max((s.get("fds", 0) for s in samples), default=0),
                          "workers": max((s.get("workers", 0) for s in samples), default=0),
                          "workers_rss_kib": max((s.get("workers_rss", 0) for s in samples), default=0),
                          "total_rss_kib": max((s.get("VmRSS", 0) + s.get("workers_rss", 0) for s in samples), default=0),
                          "worker_threads": max((s.get("workers_threads", 0) for s in samples), default=0)}
        report["rss_samples"] = [(s["t"], s.get("VmRSS")) for s in samples[::5]]

        m = results.get("mixed", {"requests": 0, "errors": ["no result"], "lat": {}, "bytes": 0, "no_cache": 0})
        lat = m["lat"]
        report["mixed"] = {"clients": args.clients, "requests": m["requests"], "errors": len(m["errors"]),
                           "error_samples": m["errors"][:10], "requests_per_s": round(m["requests"] / elapsed, 1),
                           "images_and_grids_mib": round(m["bytes"] / 2**20, 1), "no_cache_images": m["no_cache"],
                           "counts": {k: len(v) for k, v in lat.items()},
                           "p50_ms": {k: ms(percentile(v, 50)) for k, v in lat.items()},
                           "p99_ms": {k: ms(percentile(v, 99)) for k, v in lat.items()},
                           "max_ms": {k: ms(max(v) if v else None) for k, v in lat.items()}}
        pr = results.get("probe", {"lat": [], "errors": ["no result"]})
        report["probe"] = {"clients": args.probes, "pings": len(pr["lat"]), "errors": pr["errors"][:10],
                           "p50_ms": ms(percentile(pr["lat"], 50)), "p99_ms": ms(percentile(pr["lat"], 99)),
                           "max_ms": ms(max(pr["lat"]) if pr["lat"] else None)}
        ab = results.get("abusers", {})
        report["stallers"] = {"clients": args.stallers, "connections": ab.get("stall_connections"),
                              "timed_out_with_error": ab.get("stall_timeouts"),
                              "wait_s_min_max": [round(min(ab.get("stall_wait") or [0]), 2), round(max(ab.get("stall_wait") or [0]), 2)],
                              "bad": (ab.get("stall_bad") or [])[:10]}
        report["nonreaders"] = {"clients": args.nonreaders, "requests_sent": ab.get("nonreader_requests"),
                                "bytes_sent": ab.get("nonreader_bytes"), "send_blocked": ab.get("nonreader_blocked"),
                                "errors": (ab.get("nonreader_errors") or [])[:10]}
        fl = results.get("faults", {})
        report["disconnecters"] = {"clients": args.disconnecters, "mid_reply_disconnects": fl.get("disconnects"),
                                   "errors": (fl.get("disconnect_errors") or [])[:10]}
        report["churn"] = {"clients": args.churners, "requests": fl.get("churn_requests"), "images": fl.get("churn_images"),
                           "clean_errors": fl.get("churn_clean_errors"), "bad": (fl.get("churn_bad") or [])[:10],
                           "vandal_ops": fl.get("vandal_ops")}

        if daemon.poll() is None:
            phase_library_removed(sock, library, albums, testdata, report)
            phase_cache_fill(sock, pid, albums, report)
            time.sleep(3)
            report["rss_end_kib"] = proc_status(pid).get("VmRSS")
            report["hwm_kib"] = proc_status(pid).get("VmHWM")
            if args.trim_probe and shutil.which("gdb"):
                # Diagnostic: how much of the end RSS is free memory glibc keeps (not a leak)?
                subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "call (int)malloc_trim(0)"],
                               capture_output=True, timeout=60)
                time.sleep(1)
                report["rss_after_malloc_trim_kib"] = proc_status(pid).get("VmRSS")
            t0 = time.monotonic()
            daemon.send_signal(signal.SIGTERM)
            try:
                report["sigterm_exit"] = daemon.wait(timeout=15)
            except subprocess.TimeoutExpired:
                report["sigterm_exit"] = "timeout"
                daemon.kill()
            report["sigterm_s"] = round(time.monotonic() - t0, 2)

        # Checks.
        c = report["checks"]
        c["mixed_zero_errors"] = report["mixed"]["errors"] == 0 and report["mixed"]["requests"] > 0
        c["probe_ping_p99_under_50ms"] = (report["probe"]["p99_ms"] or 1e9) < 50 and not report["probe"]["errors"]
        c["stallers_timed_out"] = bool(ab.get("stall_timeouts")) and not ab.get("stall_bad")
        c["nonreaders_blocked_not_broken"] = bool(ab.get("nonreader_blocked")) and not ab.get("nonreader_errors")
        c["disconnects_harmless"] = bool(fl.get("disconnects")) and not fl.get("disconnect_errors")
        c["churn_only_clean_errors"] = bool(fl.get("churn_requests")) and not fl.get("churn_bad")
        lr = report.get("library_removed", {})
        c["library_removed_and_recreated"] = (not lr.get("bad")) and lr.get("recovered_after_s") is not None
        warm = report.get("rss_warm_kib") or 0
        end = report.get("rss_end_kib") or 0
        c["rss_end_within_20pct_of_warm"] = bool(warm) and end <= warm * 1.2
        cf = report.get("cache_fill", {})
        c["cache_bound_honoured"] = cf.get("encoded_mib", 0) > 2 * args.cache_mb and cf.get("growth_mib", 1e9) < args.cache_mb + 32
        c["sigterm_exit_0"] = report.get("sigterm_exit") == 0
        for k, ok in c.items():
            if not ok:
                failures.append(k)
        report["failures"] = failures
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
        log.close()

    print_summary(report)
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(report, f, indent=1)
        print(f"soak: figures in {args.json_out}")
    if args.keep or failures:
        print(f"soak: daemon log and library kept in {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failures else 0)


def print_summary(r):
    mb = lambda kib: "?" if not kib else f"{kib / 1024:.1f} MiB"  # noqa: E731
    m, pr = r.get("mixed", {}), r.get("probe", {})
    print(f"soak: {r['seconds']:.0f} s, --cache-mb {r['cache_mb']}, thumbnails {'on' if r['thumbnails'] else 'off'}")
    print(f"  mixed: {m.get('clients')} clients, {m.get('requests')} requests ({m.get('requests_per_s')}/s), "
          f"{m.get('errors')} errors; counts {m.get('counts')}")
    print(f"         p50 ms {m.get('p50_ms')}")
    print(f"         p99 ms {m.get('p99_ms')}")
    for e in (m.get("error_samples") or [])[:5]:
        print(f"         error: {e}")
    print(f"  probe ping: {pr.get('pings')} pings, p50 {pr.get('p50_ms')} ms, p99 {pr.get('p99_ms')} ms, max {pr.get('max_ms')} ms")
    s = r.get("stallers", {})
    print(f"  stallers: {s.get('connections')} half frames, {s.get('timed_out_with_error')} closed with the timeout error "
          f"after {s.get('wait_s_min_max')} s; bad {len(s.get('bad') or [])}")
    n = r.get("nonreaders", {})
    print(f"  non-readers: {n.get('requests_sent')} requests, {n.get('bytes_sent')} bytes sent, blocked {n.get('send_blocked')} times")
    d = r.get("disconnecters", {})
    print(f"  mid-reply disconnects: {d.get('mid_reply_disconnects')}, errors {len(d.get('errors') or [])}")
    c = r.get("churn", {})
    print(f"  churn: {c.get('requests')} requests, {c.get('images')} images, clean errors {c.get('clean_errors')}, "
          f"bad {len(c.get('bad') or [])}; vandal {c.get('vandal_ops')}")
    for e in (c.get("bad") or [])[:5]:
        print(f"         bad: {e}")
    lr = r.get("library_removed", {})
    print(f"  library removed: {lr.get('ok')} ok, clean errors {lr.get('clean_errors')}, albums while removed "
          f"{lr.get('albums_while_removed')}, back after {lr.get('recovered_after_s')} s; bad {len(lr.get('bad') or [])}")
    cf = r.get("cache_fill", {})
    if cf.get("error"):
        print(f"  cache fill: error {cf['error']}")
    print(f"  cache fill: {cf.get('renders')} renders, {cf.get('encoded_mib')} MiB encoded, RSS +{cf.get('growth_mib')} MiB")
    pk = r.get("peak", {})
    print(f"  RSS: cold {mb(r.get('rss_cold_kib'))}, warm {mb(r.get('rss_warm_kib'))}, peak {mb(pk.get('rss_kib'))}, "
          f"after load {mb(r.get('rss_after_load_kib'))}, end {mb(r.get('rss_end_kib'))}; "
          f"peak threads {pk.get('threads')}, fds {pk.get('fds')}; "
          f"workers (peak {pk.get('workers')}): RSS {mb(pk.get('workers_rss_kib'))}, threads {pk.get('worker_threads')}; "
          f"daemon + workers peak {mb(pk.get('total_rss_kib'))}"
          + (f"; after malloc_trim {mb(r['rss_after_malloc_trim_kib'])}" if r.get("rss_after_malloc_trim_kib") else ""))
    print(f"  SIGTERM: exit {r.get('sigterm_exit')} in {r.get('sigterm_s')} s")
    for k, ok in r.get("checks", {}).items():
        print(f"  [{'ok' if ok else 'FAIL'}] {k}")
    print("soak: PASS" if not r.get("failures") else f"soak: FAIL: {', '.join(r['failures'])}")


if __name__ == "__main__":
    main()
