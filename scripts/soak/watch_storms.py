#!/usr/bin/env python3
"""Reproduces the watcher storms of issue 21 #8 against a real pickerd and prints figures.

  churn:   a file in C/ rewritten every 100 ms for 10 s; after 2 s a photo is added to B/:
           seconds until `pickerctl watch --library --json` announces it.
  folders: A/tmp made and removed 350 ms apart for 8 s: whole-tree scans (" scanned: " log lines)
           and folder rescans ("looked at again") the daemon logged meanwhile (+6 s to settle).
  nonimg:  a folder of N non-image files: daemon CPU for the first scan, a restart (index),
           and one file touched there.

usage: watch_storms.py BIN_DIR PHOTO.jpg [churn|folders|nonimg ...] [--nonimages N]
"""
import json, os, shutil, subprocess, sys, tempfile, threading, time


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Daemon:
    def __init__(self, bindir, lib, work):
        self.bindir, self.lib, self.work = bindir, lib, work
        self.sock = os.path.join(work, "s.sock")
        self.logpath = os.path.join(work, "pickerd.log")

    def start(self):
        env = {"PATH": "/usr/bin:/bin", "HOME": self.work, "XDG_CACHE_HOME": os.path.join(self.work, "cache")}
        self.proc = subprocess.Popen([os.path.join(self.bindir, "pickerd"), "--library", self.lib, "--socket", self.sock,
                                      "--state-dir", os.path.join(self.work, "state")], env=env,
                                     stdout=open(self.logpath, "a"), stderr=subprocess.STDOUT)
        for _ in range(400):
            if self.ctl("library", "--wait").returncode == 0:
                return
            time.sleep(0.05)
        raise SystemExit("pickerd did not start")

    def ctl(self, *args, **kw):
        return subprocess.run([os.path.join(self.bindir, "pickerctl"), "--socket", self.sock, *args],
                              capture_output=True, **kw)

    def log(self):
        return open(self.logpath).read()

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def churn_storm(d, lib, photo):
    os.makedirs(f"{lib}/C", exist_ok=True)
    out = open(os.path.join(d.work, "watch.out"), "w")
    watch = subprocess.Popen([os.path.join(d.bindir, "pickerctl"), "--socket", d.sock, "watch", "--library", "--json"],
                             stdout=out, stderr=subprocess.STDOUT)
    time.sleep(0.5)
    stop = threading.Event()

    def rewrite():
        while not stop.is_set():
            with open(f"{lib}/C/busy.txt", "w") as f:
                f.write(str(time.time()))
            time.sleep(0.1)
    t = threading.Thread(target=rewrite)
    t.start()
    time.sleep(2)
    added = time.monotonic()
    os.makedirs(f"{lib}/B", exist_ok=True)
    shutil.copy(photo, f"{lib}/B/new.jpg")
    seen = None
    while time.monotonic() - added < 15:
        for line in open(os.path.join(d.work, "watch.out")):
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if o.get("event") == "library_changes" and "B/new.jpg" in o.get("added", []):
                seen = time.monotonic() - added
        if seen is not None:
            break
        if time.monotonic() - added > 8:
            stop.set()  # 10 s of churn in all
        time.sleep(0.02)
    stop.set()
    t.join()
    watch.terminate()
    print(f"churn: new photo in B/ announced after {seen:.2f} s (file in C/ rewritten every 100 ms for 10 s)"
          if seen is not None else "churn: new photo never announced within 15 s")


def folder_storm(d, lib):
    os.makedirs(f"{lib}/A", exist_ok=True)
    before = d.log()
    full0, part0 = before.count(" scanned: "), before.count("looked at again")
    end = time.monotonic() + 8
    cycles = 0
    while time.monotonic() < end:
        os.mkdir(f"{lib}/A/tmp")
        time.sleep(0.35)
        os.rmdir(f"{lib}/A/tmp")
        time.sleep(0.35)
        cycles += 1
    time.sleep(6)
    after = d.log()
    print(f"folders: {cycles} make/remove cycles in 8 s -> {after.count(' scanned: ') - full0} whole-tree scans, "
          f"{after.count('looked at again') - part0} folder rescans")


def nonimage_storm(bindir, photo, n):
    work = tempfile.mkdtemp(prefix="pkstorm-")
    lib = os.path.join(work, "lib")
    os.makedirs(f"{lib}/junk")
    os.makedirs(f"{lib}/A")
    shutil.copy(photo, f"{lib}/A/one.jpg")
    for i in range(n):
        with open(f"{lib}/junk/f{i:06d}.txt", "w") as f:
            f.write("x")
    d = Daemon(bindir, lib, work)
    d.start()
    first = cpu_seconds(d.proc.pid)
    d.stop()
    d.start()
    restart = cpu_seconds(d.proc.pid)
    time.sleep(1)
    c0 = cpu_seconds(d.proc.pid)
    with open(f"{lib}/junk/touched.txt", "w") as f:
        f.write("y")
    time.sleep(4)
    touched = cpu_seconds(d.proc.pid) - c0
    d.stop()
    shutil.rmtree(work)
    print(f"nonimg: {n} non-images: first start {first:.2f} s CPU, restart {restart:.2f} s CPU, "
          f"one file touched there {touched:.2f} s CPU")


def main():
    bindir, photo = sys.argv[1], sys.argv[2]
    what = [a for a in sys.argv[3:] if not a.startswith("--") and not a.isdigit()] or ["churn", "folders", "nonimg"]
    n = int(sys.argv[sys.argv.index("--nonimages") + 1]) if "--nonimages" in sys.argv else 200000
    if "churn" in what or "folders" in what:
        work = tempfile.mkdtemp(prefix="pkstorm-")
        lib = os.path.join(work, "lib")
        os.makedirs(f"{lib}/A")
        shutil.copy(photo, f"{lib}/A/one.jpg")
        d = Daemon(bindir, lib, work)
        d.start()
        try:
            if "churn" in what:
                churn_storm(d, lib, photo)
            if "folders" in what:
                folder_storm(d, lib)
        finally:
            d.stop()
            shutil.rmtree(work)
    if "nonimg" in what:
        nonimage_storm(bindir, photo, n)


if __name__ == "__main__":
    main()
