"""The soak's client groups, each run in a process of its own (soak.py starts them): the mixed load,
the probes, the abusers (stallers, non-readers) and the faults (disconnecters, the churn album's
vandal and readers). Each writes its figures to the queue it is given."""
import os
import random
import shutil
import socket
import sys
import threading
import time

# The wire codec is the Python client package's (clients/python), not a copy.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from pickerd_client import PickerError, RawConnection  # noqa: E402
from pickerd_client.wire import MessageType as T  # noqa: E402

FORMAT_JPEG, FORMAT_PNG, FORMAT_WEBP = 1, 2, 3
MAGIC = {FORMAT_JPEG: b"\xff\xd8", FORMAT_PNG: b"\x89PNG", FORMAT_WEBP: b"RIFF"}

# image_too_large: the vandal's random bytes can land on a header's size fields (a 13:43 run:
# "c07.jpg declares 23556x35407 pixels, over the 200 Mpx cap"), and refusing that is right.
CLEAN_CHURN_ERRORS = {"no_such_album", "no_such_photo", "nothing_selected", "corrupt_image",
                      "unsupported_image", "image_too_large", "io_error", "cancelled"}




# ---------------------------------------------------------------- client groups (each in its own process)

def group_mixed(path, seconds, n, first, albums, thumbs, out):
    """n clients mixing get-image / thumbnails / ping; every error counts."""
    stats = {"requests": 0, "errors": [], "lat": {"ping": [], "get_image": [], "thumbnails": [], "select": [],
                                                   "select_album": []},
             "bytes": 0, "no_cache": 0}
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds
    album_names = [a for a in albums if albums[a]]

    def client(k):
        rnd = random.Random(k)
        name = f"mix{k}"
        local = {"ping": [], "get_image": [], "thumbnails": [], "select": [], "select_album": []}
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
                        local["select_album"].append(time.monotonic() - t0)
                        requests += 1
                    if op < 0.80 or not thumbs:
                        # Timed alone: select used to include the select-album before it, one time in five.
                        t_select = time.monotonic()
                        c.call(T.SELECT_PHOTO, session=name, photo=rnd.randint(1, len(albums[album])))
                        local["select"].append(time.monotonic() - t_select)
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
                        t_thumbs = time.monotonic()
                        r = c.call(T.THUMBNAILS, session=name, cell_size=rnd.choice([0, 64, 160]))
                        t, p = r.type, r.payload
                        local["thumbnails"].append(time.monotonic() - t_thumbs)
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
