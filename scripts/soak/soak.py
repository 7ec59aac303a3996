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
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

# The wire codec is the Python client package's (clients/python), not a copy.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from pickerd_client import PickerError, RawConnection  # noqa: E402
from pickerd_client.wire import MessageType as T  # noqa: E402

FORMAT_JPEG, FORMAT_PNG, FORMAT_WEBP = 1, 2, 3
MAGIC = {FORMAT_JPEG: b"\xff\xd8", FORMAT_PNG: b"\x89PNG", FORMAT_WEBP: b"RIFF"}

CLEAN_CHURN_ERRORS = {"no_such_album", "no_such_photo", "nothing_selected", "corrupt_image",
                      "unsupported_image", "io_error", "cancelled"}


# ---------------------------------------------------------------- helpers

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


def find_testdata(arg):
    """--testdata, else as scripts/testcorpus.py finds it (PICKER_TESTDATA, ../shared/testdata, Tests/Fixtures)."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import testcorpus
    folder = testcorpus.find(arg)
    if not os.path.isfile(os.path.join(folder, "manifest.json")):
        sys.exit(f"soak: no test corpus (manifest.json) in {folder}")
    return folder


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
        albums[album] = sorted(names)
    churn_src = [os.path.join(testdata, e["path"]) for e in
                 by_cat.get("exif-orientation", []) + by_cat.get("jpeg-bad-exif", []) + by_cat.get("pngsuite", [])[:6]]
    d = os.path.join(root, "Churn")
    os.makedirs(d, exist_ok=True)
    for i, src in enumerate(churn_src[:16]):
        shutil.copyfile(src, os.path.join(d, f"c{i:02d}{os.path.splitext(src)[1]}"))
    return albums, churn_src


# ---------------------------------------------------------------- client groups (each in its own process)

def group_mixed(path, seconds, n, first, albums, thumbs, out):
    """n clients mixing get-image / thumbnails / ping; every error counts."""
    stats = {"requests": 0, "errors": [], "lat": {"ping": [], "get_image": [], "thumbnails": [], "select": []},
             "bytes": 0, "no_cache": 0}
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds
    album_names = [a for a in albums if albums[a]]

    def client(k):
        rnd = random.Random(k)
        name = f"mix{k}"
        local = {"ping": [], "get_image": [], "thumbnails": [], "select": []}
        errors, requests, nbytes, no_cache = [], 0, 0, 0
        try:
            c = RawConnection(path, f"soak-mix-{k}")
            w, h = rnd.choice([(320, 240), (800, 600), (1920, 1080), (200, 200), (1024, 0)])
            c.call(T.SESSION_NEW, name=name, width=w, height=h)
            requests += 1
            album = None
            while time.monotonic() < stop_at:
                op = rnd.random()
                t0 = time.monotonic()
                try:
                    if op < 0.35:
                        c.call(T.PING)
                        local["ping"].append(time.monotonic() - t0)
                        requests += 1
                        continue
                    if album is None or rnd.random() < 0.2:
                        album = rnd.choice(album_names)
                        c.call(T.SELECT_ALBUM, session=name, album=album)
                        requests += 1
                    if op < 0.80 or not thumbs:
                        c.call(T.SELECT_PHOTO, session=name, photo=rnd.randint(1, len(albums[album])))
                        local["select"].append(time.monotonic() - t0)
                        t1 = time.monotonic()
                        nc = rnd.random() < 0.25
                        no_cache += nc
                        fmt = rnd.choice([FORMAT_PNG, FORMAT_PNG, FORMAT_JPEG, FORMAT_WEBP])
                        r = c.call(T.GET_IMAGE, session=name, format=fmt, flags=int(nc))
                        local["get_image"].append(time.monotonic() - t1)
                        requests += 2
                        img = r.fields()
                        t, f, iw, ih, data = r.type, img["format"], img["width"], img["height"], img["data"]
                        if t != T.IMAGE or f != fmt or iw <= 0 or ih <= 0 or not data.startswith(MAGIC[fmt]):
                            errors.append(f"bad image reply: type {t:#x} fmt {f} {iw}x{ih}")
                        nbytes += len(data)
                    else:
                        r = c.call(T.THUMBNAILS, session=name, cell_size=rnd.choice([0, 64, 160]))
                        t, p = r.type, r.payload
                        local["thumbnails"].append(time.monotonic() - t0)
                        requests += 1
                        nbytes += len(p)
                        if t != T.THUMBNAILS_REPLY:
                            errors.append(f"bad thumbnails reply type {t:#x}")
                except PickerError as e:
                    errors.append(f"{e.name}: {e.message}")
                    requests += 1
            c.close()
        except Exception as e:  # connection lost, timeout: an error
            errors.append(f"client {k}: {type(e).__name__}: {e}")
        with lock:
            stats["requests"] += requests
            stats["errors"] += errors
            stats["bytes"] += nbytes
            stats["no_cache"] += no_cache
            for key in local:
                stats["lat"][key] += local[key]

    threads = [threading.Thread(target=client, args=(first + i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(("mixed", stats))


def group_probe(path, seconds, n, out):
    """n clients pinging every 20 ms: the latency others see."""
    lat, errors = [], []
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def client(k):
        mine, errs = [], []
        try:
            c = RawConnection(path, f"soak-probe-{k}")
            while time.monotonic() < stop_at:
                t0 = time.monotonic()
                try:
                    c.call(T.PING)
                    mine.append(time.monotonic() - t0)
                except PickerError as e:
                    errs.append(str(e))
                time.sleep(0.02)
            c.close()
        except Exception as e:
            errs.append(f"probe {k}: {type(e).__name__}: {e}")
        with lock:
            lat.extend(mine)
            errors.extend(errs)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(("probe", {"lat": lat, "errors": errors}))


def group_abusers(path, seconds, stallers, nonreaders, out):
    """Half-frame stallers and clients that never read."""
    st = {"stall_connections": 0, "stall_timeouts": 0, "stall_wait": [], "stall_bad": [],
          "nonreader_requests": 0, "nonreader_bytes": 0, "nonreader_blocked": 0, "nonreader_errors": []}
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def staller(k):
        while time.monotonic() < stop_at - 1:
            try:
                c = RawConnection(path, f"soak-stall-{k}")
                c.sock.sendall(c.frame(T.PING, 2)[:6])  # 6 of 9 bytes
                t0 = time.monotonic()
                c.sock.settimeout(max(1.0, stop_at - time.monotonic() + 15))
                with lock:
                    st["stall_connections"] += 1
                try:
                    r = c.recv()
                    t, i = r.type, r.id
                    wait = time.monotonic() - t0
                    e = r.fields() if t == T.ERROR else {"code": None, "message": ""}
                    code, msg = e["code"], e["message"]
                    eof = c.sock.recv(1) == b""
                    with lock:
                        if t == T.ERROR and i == 0 and code == 1 and "incomplete frame" in msg and eof:
                            st["stall_timeouts"] += 1
                            st["stall_wait"].append(wait)
                        else:
                            st["stall_bad"].append(f"type {t:#x} id {i} {msg!r} eof={eof}")
                except (socket.timeout, EOFError, OSError) as e:
                    with lock:
                        st["stall_bad"].append(f"{type(e).__name__}: {e}")
                c.close()
            except Exception as e:
                with lock:
                    st["stall_bad"].append(f"connect: {type(e).__name__}: {e}")
                time.sleep(0.5)

    def nonreader(k):
        try:
            c = RawConnection(path, f"soak-deaf-{k}")
            name = f"deaf{k}"
            c.call(T.SESSION_NEW, name=name, width=1024, height=768)
            c.call(T.SELECT_ALBUM, session=name, album="Camera")
            c.call(T.SELECT_PHOTO, session=name, photo=1 + k % 3)
            c.sock.setblocking(False)
            pending = b""
            n = 0
            while time.monotonic() < stop_at:
                if not pending:
                    i = c.new_id()
                    pending = (c.frame(T.GET_IMAGE, i, session=name, format=FORMAT_PNG) if i % 4 == 0
                               else c.frame(T.PING, i))
                    n += 1
                try:
                    sent = c.sock.send(pending)
                    with lock:
                        st["nonreader_bytes"] += sent
                    pending = pending[sent:]
                except BlockingIOError:
                    with lock:
                        st["nonreader_blocked"] += 1
                    time.sleep(0.1)
                except OSError as e:
                    with lock:
                        st["nonreader_errors"].append(f"{type(e).__name__}: {e}")
                    break
            with lock:
                st["nonreader_requests"] += n
            c.close()
        except Exception as e:
            with lock:
                st["nonreader_errors"].append(f"setup: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=staller, args=(i,)) for i in range(stallers)]
    threads += [threading.Thread(target=nonreader, args=(i,)) for i in range(nonreaders)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(("abusers", st))


def group_faults(path, seconds, disconnecters, churners, library, churn_src, out):
    """Mid-reply disconnects; photos deleted/truncated/replaced while clients read them."""
    st = {"disconnects": 0, "disconnect_errors": [], "churn_requests": 0, "churn_images": 0,
          "churn_clean_errors": {}, "churn_bad": [], "vandal_ops": {}}
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds
    churn_dir = os.path.join(library, "Churn")

    def disconnecter(k):
        rnd = random.Random(1000 + k)
        name = f"cut{k}"
        try:
            setup = RawConnection(path, f"soak-cut-setup-{k}")
            setup.call(T.SESSION_NEW, name=name, width=4000, height=3000)
            setup.call(T.SELECT_ALBUM, session=name, album="Camera")
            setup.close()
        except Exception as e:
            with lock:
                st["disconnect_errors"].append(f"setup: {e}")
            return
        while time.monotonic() < stop_at:
            try:
                c = RawConnection(path, f"soak-cut-{k}")
                c.call(T.SELECT_PHOTO, session=name, photo=rnd.randint(1, 3))
                c.sock.sendall(c.frame(T.GET_IMAGE, session=name, format=FORMAT_PNG, flags=int(rnd.random() < 0.5)))
                want = rnd.choice([0, 4, 100, 65536, 1 << 20])
                got = 0
                while got < want:
                    chunk = c.sock.recv(min(65536, want - got))
                    if not chunk:
                        break
                    got += len(chunk)
                c.close()
                with lock:
                    st["disconnects"] += 1
            except Exception as e:
                with lock:
                    st["disconnect_errors"].append(f"{type(e).__name__}: {e}")
                time.sleep(0.2)

    def churner(k):
        rnd = random.Random(2000 + k)
        name = f"churn{k}"
        try:
            c = RawConnection(path, f"soak-churn-{k}")
            c.call(T.SESSION_NEW, name=name, width=rnd.choice([300, 900]))
        except Exception as e:
            with lock:
                st["churn_bad"].append(f"setup: {e}")
            return
        while time.monotonic() < stop_at:
            try:
                c.call(T.SELECT_ALBUM, session=name, album="Churn")
                count = len(c.call(T.PHOTOS, session=name).fields()["photos"])
                c.call(T.SELECT_PHOTO, session=name, photo=rnd.randint(1, max(1, count)))
                c.call(T.GET_IMAGE, session=name, format=FORMAT_PNG, flags=int(rnd.random() < 0.7))
                with lock:
                    st["churn_requests"] += 4
                    st["churn_images"] += 1
            except PickerError as e:
                with lock:
                    st["churn_requests"] += 1
                    if e.name in CLEAN_CHURN_ERRORS:
                        st["churn_clean_errors"][e.name] = st["churn_clean_errors"].get(e.name, 0) + 1
                    else:
                        st["churn_bad"].append(f"{e.name}: {e.message}")
            except Exception as e:
                with lock:
                    st["churn_bad"].append(f"{type(e).__name__}: {e}")
                try:
                    c.close()
                    c = RawConnection(path, f"soak-churn-{k}")
                except Exception:
                    time.sleep(0.2)
        c.close()

    def vandal():
        rnd = random.Random(7)
        ops = {}
        while time.monotonic() < stop_at:
            try:
                names = [n for n in os.listdir(churn_dir) if not n.startswith(".")]
            except OSError:
                names = []
            op = rnd.choice(["delete", "truncate", "garbage", "replace", "add", "add"])
            try:
                if op == "delete" and len(names) > 4:
                    os.unlink(os.path.join(churn_dir, rnd.choice(names)))
                elif op == "truncate" and names:
                    p = os.path.join(churn_dir, rnd.choice(names))
                    size = os.path.getsize(p)
                    with open(p, "r+b") as f:
                        f.truncate(rnd.randint(0, max(0, size - 1)))
                elif op == "garbage" and names:
                    p = os.path.join(churn_dir, rnd.choice(names))
                    with open(p, "r+b") as f:
                        f.seek(rnd.randint(0, 4096))
                        f.write(os.urandom(rnd.randint(1, 4096)))
                elif op == "replace" and names:
                    p = os.path.join(churn_dir, rnd.choice(names))
                    tmp = os.path.join(churn_dir, ".tmp-replace")
                    shutil.copyfile(rnd.choice(churn_src), tmp)
                    os.replace(tmp, p)
                elif op == "add":
                    src = rnd.choice(churn_src)
                    shutil.copyfile(src, os.path.join(churn_dir, f"n{rnd.randint(0, 40):02d}{os.path.splitext(src)[1]}"))
                else:
                    continue
                ops[op] = ops.get(op, 0) + 1
            except OSError:
                pass
            time.sleep(0.02)
        with lock:
            st["vandal_ops"] = ops

    threads = [threading.Thread(target=disconnecter, args=(i,)) for i in range(disconnecters)]
    threads += [threading.Thread(target=churner, args=(i,)) for i in range(churners)]
    threads.append(threading.Thread(target=vandal))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(("faults", st))


# ---------------------------------------------------------------- phases run from the main process

def wait_for_daemon(path, proc, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            c = RawConnection(path, "soak-wait", timeout=2)
            c.call(T.PING)
            c.close()
            return True
        except Exception:
            time.sleep(0.1)
    return False


def album_count(path):
    c = RawConnection(path, "soak-albums")
    albums = c.call(T.ALBUMS).fields()["albums"]
    c.close()
    return len(albums)


def phase_library_removed(path, library, albums, testdata, report):
    """Removes the library folder while a client keeps asking, then recreates it."""
    st = {"ok": 0, "clean_errors": {}, "bad": []}
    before = album_count(path)
    c = RawConnection(path, "soak-rmlib")
    c.call(T.SESSION_NEW, name="rmlib", width=400, height=300)
    backup = library + ".bak"
    os.rename(library, backup)  # the folder is gone (same effect as rm -rf, and cheap to restore)

    def ask(seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                c.call(T.SELECT_ALBUM, session="rmlib", album="Camera")
                c.call(T.SELECT_PHOTO, session="rmlib", photo=1)
                c.call(T.GET_IMAGE, session="rmlib", format=FORMAT_PNG, flags=1)
                st["ok"] += 1
            except PickerError as e:
                if e.name in CLEAN_CHURN_ERRORS:
                    st["clean_errors"][e.name] = st["clean_errors"].get(e.name, 0) + 1
                else:
                    st["bad"].append(f"{e.name}: {e.message}")
            time.sleep(0.1)

    ask(7)  # past the 5 s rescan interval
    st["albums_while_removed"] = album_count(path)
    shutil.copytree(backup, library)  # recreated: a new folder with the same files
    shutil.rmtree(backup)
    t0 = time.monotonic()
    recovered = None
    while time.monotonic() - t0 < 20:
        if album_count(path) == before:
            try:
                c.call(T.SELECT_ALBUM, session="rmlib", album="Camera")
                c.call(T.SELECT_PHOTO, session="rmlib", photo=1)
                c.call(T.GET_IMAGE, session="rmlib", format=FORMAT_PNG, flags=1)
                recovered = time.monotonic() - t0
                break
            except PickerError:
                pass
        time.sleep(0.25)
    st["albums_before"] = before
    st["recovered_after_s"] = None if recovered is None else round(recovered, 2)
    c.close()
    report["library_removed"] = st


def phase_cache_fill(path, pid, albums, report):
    """Many distinct cached renders: RSS must stay within the cache bound plus slack.
    An error (e.g. an album not back after the library-removed phase) is reported, not raised,
    so the figures of the load phase are still printed."""
    try:
        fill_cache(path, pid, albums, report)
    except (P.ServerError, OSError) as e:
        report["cache_fill"] = {"error": str(e)}


def fill_cache(path, pid, albums, report):
    before = proc_status(pid).get("VmRSS", 0)
    c = RawConnection(path, "soak-cache")
    total = 0
    renders = 0
    c.call(T.SESSION_NEW, name="cachefill", width=1000, height=1000)
    for album in ("Camera", "Orientation", "WebP", "PNG"):
        if album not in albums:
            continue
        c.call(T.SELECT_ALBUM, session="cachefill", album=album)
        for idx in range(1, len(albums[album]) + 1):
            c.call(T.SELECT_PHOTO, session="cachefill", photo=idx)
            for width in (1200, 1100, 1000, 900, 800):
                c.call(T.SESSION_RESIZE, session="cachefill", width=width, height=width)
                total += len(c.call(T.GET_IMAGE, session="cachefill", format=FORMAT_PNG).payload)
                renders += 1
    c.close()
    time.sleep(1)
    after = proc_status(pid).get("VmRSS", 0)
    report["cache_fill"] = {"renders": renders, "encoded_mib": round(total / 2**20, 1),
                            "rss_before_mib": round(before / 1024, 1), "rss_after_mib": round(after / 1024, 1),
                            "growth_mib": round((after - before) / 1024, 1)}


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
                          "fds": max((s.get("fds", 0) for s in samples), default=0)}
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
          f"peak threads {pk.get('threads')}, fds {pk.get('fds')}"
          + (f"; after malloc_trim {mb(r['rss_after_malloc_trim_kib'])}" if r.get("rss_after_malloc_trim_kib") else ""))
    print(f"  SIGTERM: exit {r.get('sigterm_exit')} in {r.get('sigterm_s')} s")
    for k, ok in r.get("checks", {}).items():
        print(f"  [{'ok' if ok else 'FAIL'}] {k}")
    print("soak: PASS" if not r.get("failures") else f"soak: FAIL: {', '.join(r['failures'])}")


if __name__ == "__main__":
    main()
