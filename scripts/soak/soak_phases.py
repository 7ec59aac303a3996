"""The soak's phases run from the main process after the load: the library folder removed and
recreated under a client, and the cache fill that checks --cache-mb bounds memory."""
import os
import shutil
import time

from soak_groups import CLEAN_CHURN_ERRORS, FORMAT_PNG, PickerError, RawConnection, T
from soak_figures import proc_status


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
    except (PickerError, OSError) as e:  # was P.ServerError, a name never defined
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
