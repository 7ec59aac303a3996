#!/usr/bin/env python3
"""Issue 23: what replacing a killed decoder worker costs (a cancel or a superseded prefetch kills it).

    scripts/decoder-respawn-cost.py PICKERD [--runs N]

Starts `PICKERD --decoder-worker` as the daemon does (a SOCK_SEQPACKET socketpair end as
descriptor 3, stdin /dev/null, nothing else open) and times, per run:
  kill:  SIGKILL of a ready worker to its reaped exit status (the daemon waits for it, in
         `DecoderProcess.kill`, on the thread whose job was cancelled);
  ready: posix_spawn to the worker blocking in recvmsg on descriptor 3 (/proc/PID/syscall), i.e.
         runtime start-up, libraries loaded, heif_init, helper thread, sandbox entered;
  cpu:   the worker's CPU time when ready (all threads, /proc/PID/task/*/schedstat) (what a respawn costs the machine, load or not).
Prints min / median / max of each in ms."""
import argparse
import os
import signal
import socket
import statistics
import sys
import time

RECVMSG = 47  # x86_64


def blocked_in_recvmsg(pid):
    try:
        with open(f"/proc/{pid}/syscall") as f:
            first = f.read().split()
    except OSError:
        return False
    return bool(first) and first[0] == str(RECVMSG)


def cpu_ms(pid):
    """CPU time of all the process's threads so far (schedstat: nanoseconds on a CPU)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/schedstat") as f:
            total += int(f.read().split()[0])
    return total / 1e6


def spawn(pickerd):
    """Starts a worker as `pk_spawn_worker` does; returns its pid, the daemon's end and the ms to ready."""
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)  # both close-on-exec
    start = time.monotonic()
    pid = os.posix_spawn(pickerd, [pickerd, "--decoder-worker"], os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, theirs.fileno(), 3),
                                       (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0)])
    theirs.close()
    while not blocked_in_recvmsg(pid):
        ended, status = os.waitpid(pid, os.WNOHANG)
        if ended:
            sys.exit(f"the worker ended (wait status {status}) before it was ready")
        time.sleep(0.0002)
    return pid, mine, (time.monotonic() - start) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pickerd")
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args()
    ready, cpu, kill = [], [], []
    for _ in range(args.runs):
        pid, channel, ms = spawn(args.pickerd)
        ready.append(ms)
        cpu.append(cpu_ms(pid))
        start = time.monotonic()
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        kill.append((time.monotonic() - start) * 1000)
        channel.close()
    for name, values in (("kill", kill), ("ready", ready), ("cpu", cpu)):
        print(f"{name}: min {min(values):.1f} ms, median {statistics.median(values):.1f} ms, max {max(values):.1f} ms")


if __name__ == "__main__":
    main()
