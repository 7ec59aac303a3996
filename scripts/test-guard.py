#!/usr/bin/env python3
"""Runs `make test`'s body so that it leaves nothing behind, and fails when it would have.

    python3 scripts/test-guard.py COMMAND [ARG...]

- COMMAND runs with a private TMPDIR (a fresh folder in the caller's TMPDIR, default /tmp), removed
  at the end. What the toolchain leaves there is counted and removed: swift-driver makes a
  `TemporaryDirectory.XXXXXX` holding `.keep-directory` for every `swiftc` it runs and never removes
  it (SwiftPM runs `swiftc -print-target-info` and `swiftc -h` on every `swift build`/`swift test`),
  SwiftPM keeps its lock files (`_<path>.lock`) there, and swift-frontend writes every macro
  expansion of a debug build into `swift-generated-sources/`. Anything else left in it came from the
  tests or the product: listed, and the run fails.
- This process is a child subreaper (PR_SET_CHILD_SUBREAPER), so every process the run started is
  its descendant, daemonised ones included (tmux servers, a pickerd that forked). Any still alive
  when COMMAND has ended is listed, killed (SIGTERM, then SIGKILL) and the run fails.
- Entries that the tests name under /tmp itself (socket folders are kept short there, `sun_path`
  holds 107 bytes): new `pk*` and `pickerd-*` entries left after the run are
  listed and the run fails, except those a live process outside this run still uses (another test
  run on the same machine: a file, working folder or socket in it, or it is the process's TMPDIR).

The exit status is COMMAND's when it failed, else 1 when something was left, else 0.
Note: SwiftPM's lock files live in TMPDIR, so a `swift build` run by hand in the same checkout
during `make test` is not serialised with it.
"""

import ctypes
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PR_SET_CHILD_SUBREAPER = 36

# What the Swift toolchain leaves in TMPDIR (not ours to fix; removed with the private folder).
TOOLCHAIN_DIR = re.compile(r"^TemporaryDirectory\.[A-Za-z0-9]{6}$")
TOOLCHAIN_FILE = re.compile(r"^_.+\.lock$")
TOOLCHAIN_FILES_IN_DIR = {".keep-directory"}
# swift-frontend writes every macro expansion (each @Test, #expect) of a debug build here, for the
# debugger; 4,000+ files on a build of the tests.
MACRO_SOURCES = "swift-generated-sources"
# Names the tests and clients give what they put straight into /tmp. Not `TemporaryDirectory.*`:
# this run's toolchain makes those in the private TMPDIR, so one that appears in /tmp during the
# run came from another swift process on the machine (a build beside the run), not from it.
OURS_IN_TMP = re.compile(r"^(pk|pickerd-)")


def become_subreaper():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("test-guard: prctl(PR_SET_CHILD_SUBREAPER) failed: only direct children are checked", file=sys.stderr)


def read_status(pid):
    """(ppid, name) of a process from /proc, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":\t", 1) for line in f.read().splitlines() if ":\t" in line)
        return int(fields["PPid"]), fields.get("Name", "?").strip()
    except (OSError, KeyError, ValueError):
        return None


def command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def is_zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def descendants(root):
    """Live (not zombie) descendants of `root`."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            status = read_status(int(entry))
            if status:
                children.setdefault(status[0], []).append(int(entry))
    out, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return [pid for pid in out if not is_zombie(pid)]


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_leftovers():
    """Lists, then ends, every process the run left; returns the list."""
    reap()
    left = [(pid, command_line(pid)) for pid in descendants(os.getpid())]
    for pid, _ in left:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        reap()
        if not descendants(os.getpid()):
            break
        time.sleep(0.1)
    for pid in descendants(os.getpid()):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    time.sleep(0.2)
    reap()
    return left


def is_toolchain_litter(folder, name):
    path = os.path.join(folder, name)
    if TOOLCHAIN_FILE.match(name) and os.path.isfile(path):
        return True
    if not os.path.isdir(path) or os.path.islink(path):
        return False
    try:
        inside = os.listdir(path)
    except OSError:
        return False
    if TOOLCHAIN_DIR.match(name):
        return set(inside) <= TOOLCHAIN_FILES_IN_DIR
    if name == MACRO_SOURCES:
        return all(n.startswith("@__swiftmacro_") for n in inside)
    return False


def remove_tree(path):
    """rm -rf, also through folders a test left without write or search permission."""
    def allow_and_retry(function, target, _):
        try:
            os.chmod(os.path.dirname(target), 0o700)
            os.chmod(target, 0o700)
        except OSError:
            pass
        function(target)
    try:
        shutil.rmtree(path, onerror=allow_and_retry)
    except OSError as e:
        print(f"test-guard: could not remove {path}: {e}", file=sys.stderr)


def paths_in_use():
    """Paths live processes hold: open files, working folders, bound unix sockets."""
    used = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        for link in [f"/proc/{entry}/cwd"] + [f"/proc/{entry}/fd/{fd}" for fd in _fds(entry)]:
            try:
                used.add(os.readlink(link))
            except OSError:
                pass
    try:
        with open("/proc/net/unix") as f:
            for line in f.read().splitlines()[1:]:
                parts = line.split()
                if len(parts) >= 8 and parts[7].startswith("/"):
                    used.add(parts[7])
    except OSError:
        pass
    return used


def tmpdirs_in_use():
    """The TMPDIR of every live process: another run's private folder is in use while that run
    goes on, even when no process has a file open in it at this instant."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                for var in f.read().split(b"\0"):
                    if var.startswith(b"TMPDIR="):
                        found.add(os.fsdecode(var[len(b"TMPDIR="):]).rstrip("/"))
        except OSError:
            pass
    return found


def _fds(pid):
    try:
        return os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return []


def tmp_entries():
    try:
        return set(os.listdir("/tmp"))
    except OSError:
        return set()


def describe(path):
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            inside = sorted(os.listdir(path))
            shown = ", ".join(inside[:5]) + (", …" if len(inside) > 5 else "")
            return f"{path}/ ({len(inside)} entries: {shown})"
    except OSError:
        pass
    return path


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    become_subreaper()
    parent = os.environ.get("TMPDIR") or "/tmp"
    private = tempfile.mkdtemp(prefix="pickerd-tmp.", dir=parent)
    # Like /tmp (sticky, world-writable): tests run children as other uids (setpriv), which
    # inherit TMPDIR and must be able to make their own files there.
    os.chmod(private, 0o1777)
    before_tmp = tmp_entries()
    env = dict(os.environ, TMPDIR=private)
    try:
        status = subprocess.call(argv, env=env)
    except KeyboardInterrupt:
        status = 130
    except OSError as e:
        print(f"test-guard: cannot run {argv[0]}: {e}", file=sys.stderr)
        status = 127

    problems = []
    processes = kill_leftovers()
    if processes:
        problems.append(f"{len(processes)} process(es) left running by the run, now killed:")
        problems += [f"  pid {pid}: {cmd}" for pid, cmd in processes]

    names = sorted(os.listdir(private)) if os.path.isdir(private) else []
    toolchain = [n for n in names if is_toolchain_litter(private, n)]
    ours = [n for n in names if n not in toolchain]
    if ours:
        problems.append(f"{len(ours)} entr(y/ies) left in the private TMPDIR by the tests or the product:")
        problems += ["  " + describe(os.path.join(private, n)) for n in ours]
    remove_tree(private)

    new_in_tmp = sorted(n for n in tmp_entries() - before_tmp if OURS_IN_TMP.match(n) and os.path.join("/tmp", n) != private)
    if new_in_tmp:
        used = paths_in_use() | tmpdirs_in_use()
        elsewhere = [n for n in new_in_tmp if any(p == "/tmp/" + n or p.startswith("/tmp/" + n + "/") for p in used)]
        left = [n for n in new_in_tmp if n not in elsewhere]
        if left:
            problems.append(f"{len(left)} entr(y/ies) left in /tmp by the run:")
            problems += ["  " + describe("/tmp/" + n) for n in left]
        if elsewhere:
            print(f"test-guard: not counted, in use by a process outside this run: {', '.join(elsewhere)}")

    dirs = sum(1 for n in toolchain if TOOLCHAIN_DIR.match(n))
    locks = sum(1 for n in toolchain if TOOLCHAIN_FILE.match(n))
    macros = " and swift-generated-sources/ (macro expansions)" if MACRO_SOURCES in toolchain else ""
    print(f"test-guard: the toolchain left {dirs} TemporaryDirectory.* folder(s) (swift-driver), "
          f"{locks} SwiftPM lock file(s){macros} in the private TMPDIR; removed with it")
    if problems:
        print("test-guard: FAILED, the run left things behind:")
        print("\n".join(problems))
        return status if status != 0 else 1
    print("test-guard: nothing left behind (no processes, nothing in TMPDIR or /tmp)")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
