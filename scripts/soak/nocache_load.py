#!/usr/bin/env python3
"""24 clients looping `pickerctl get-image --no-cache` on camera JPEGs (issue 12's second row).

Starts pickerd (--cache-mb 16) on a temporary library of the corpus' camera photos, then for
--seconds runs --clients threads, each on its own session and pane, each looping the whole
`pickerctl get-image --no-cache` command (spawn to exit), while one probe loops `pickerctl status`.
VmRSS and Threads of pickerd are sampled every 50 ms. Prints peak RSS, peak threads, the probe's
status p50/p99 and the get-image p50/p99 per client spread; exit 1 on an error.
Standard library only; loopback only.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from soak import find_testdata  # noqa: E402
from soak_figures import percentile, proc_status  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pickerd", required=True)
    ap.add_argument("--pickerctl", required=True)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--clients", type=int, default=24)
    ap.add_argument("--cache-mb", type=int, default=16)
    ap.add_argument("--testdata")
    ap.add_argument("--daemon-arg", action="append", default=[], help="extra pickerd argument (repeatable)")
    args = ap.parse_args()

    testdata = find_testdata(args.testdata)
    tmp = tempfile.mkdtemp(prefix="pknocache-", dir="/tmp")
    lib = os.path.join(tmp, "lib", "Camera")
    os.makedirs(lib)
    src = os.path.join(testdata, "camera-photos")
    photos = sorted(f for f in os.listdir(src) if f.lower().endswith(".jpg"))
    for f in photos:
        shutil.copy(os.path.join(src, f), lib)
    sock = os.path.join(tmp, "s.sock")
    log = open(os.path.join(tmp, "pickerd.log"), "wb")
    env = {"PATH": "/usr/bin:/bin", "HOME": tmp, "XDG_CACHE_HOME": os.path.join(tmp, "cache"),
           "PICKERD_LOG_LEVEL": "error"}
    daemon = subprocess.Popen([args.pickerd, "--library", os.path.join(tmp, "lib"), "--socket", sock,
                               "--state-dir", os.path.join(tmp, "state"), "--cache-mb", str(args.cache_mb),
                               "--no-shared-thumbnails", *args.daemon_arg], stdout=log, stderr=log, env=env)

    def ctl(*a, session=None):
        argv = [args.pickerctl, "--socket", sock] + (["--session", session] if session else []) + list(a)
        t0 = time.monotonic()
        r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return time.monotonic() - t0, r.returncode, r.stderr.decode(errors="replace")

    for _ in range(400):
        if ctl("ping")[1] == 0 and ctl("library", "--wait")[1] == 0:
            break
        time.sleep(0.05)
    panes = [(320, 240), (800, 600), (1920, 1080), (1024, 768)]
    for k in range(args.clients):
        w, h = panes[k % len(panes)]
        ctl("session", "new", f"c{k}", "--width", str(w), "--height", str(h))
        ctl("select-album", "Camera", session=f"c{k}")
        ctl("select-photo", "--index", str(1 + k % len(photos)), session=f"c{k}")
    ctl("session", "new", "probe", "--width", "100")

    stop = time.monotonic() + args.seconds
    lat = {k: [] for k in range(args.clients)}
    status, errors, samples = [], [], []

    def client(k):
        out = os.path.join(tmp, f"c{k}.png")
        while time.monotonic() < stop:
            t, rc, err = ctl("-o", out, "get-image", "--no-cache", session=f"c{k}")
            (lat[k].append(t) if rc == 0 else errors.append(err.strip()))

    def probe():
        while time.monotonic() < stop:
            t, rc, err = ctl("status", session="probe")
            (status.append(t) if rc == 0 else errors.append(err.strip()))
            time.sleep(0.02)

    def sampler():
        while time.monotonic() < stop:
            samples.append(proc_status(daemon.pid))
            time.sleep(0.05)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(args.clients)]
    threads += [threading.Thread(target=probe), threading.Thread(target=sampler)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    daemon.send_signal(signal.SIGTERM)
    daemon.wait(timeout=15)

    ms = lambda x: "?" if x is None else f"{x * 1000:.1f}"  # noqa: E731
    every = [x for v in lat.values() for x in v]
    medians = sorted(percentile(v, 50) for v in lat.values() if v)
    print(f"nocache load: {args.clients} clients x get-image --no-cache, {args.seconds:.0f} s, "
          f"--cache-mb {args.cache_mb} {' '.join(args.daemon_arg)}")
    print(f"  get-image: {len(every)} done, p50 {ms(percentile(every, 50))} ms, p99 {ms(percentile(every, 99))} ms; "
          f"client medians {ms(medians[0] if medians else None)}..{ms(medians[-1] if medians else None)} ms")
    print(f"  status probe (whole pickerctl): {len(status)} done, p50 {ms(percentile(status, 50))} ms, "
          f"p99 {ms(percentile(status, 99))} ms, max {ms(max(status) if status else None)} ms")
    print(f"  pickerd peak RSS {max((s.get('VmRSS', 0) for s in samples), default=0) / 1024:.1f} MiB, "
          f"peak threads {max((s.get('Threads', 0) for s in samples), default=0)}; errors {len(errors)}")
    for e in errors[:5]:
        print(f"  error: {e}")
    shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
