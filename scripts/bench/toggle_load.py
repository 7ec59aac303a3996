#!/usr/bin/python3
"""64 clients toggling picks at once: throughput and reply latency of session writes.

    toggle_load.py --bin DIR [--clients 64] [--seconds 5]

Starts DIR/pickerd on a temp library (two PNGs made here) and a temp state folder, gives
every client its own connection and session, and has each toggle photo 1 in a loop (each
reply is a change that must be durable before it is sent). Prints toggles/s and the reply
latency p50/p99/max. Uses the stdlib-only client in clients/python.
"""
import argparse
import os
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python"))
import pickerd_client  # noqa: E402


def tiny_png(path):
    raw = b"".join(b"\x00" + b"\x80\x40\x20" * 16 for _ in range(16))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=5)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="toggle-load-")
    lib = os.path.join(work, "lib", "A")
    os.makedirs(lib)
    for i in range(2):
        tiny_png(os.path.join(lib, f"p{i}.png"))
    sock = os.path.join(work, "s.sock")
    daemon = subprocess.Popen([os.path.join(args.bin, "pickerd"), "--library", os.path.join(work, "lib"),
                               "--socket", sock, "--state-dir", os.path.join(work, "state")],
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if os.path.exists(sock):
                break
            time.sleep(0.05)
        setup = pickerd_client.Client(sock)
        for _ in range(100):
            if setup.library().ready:
                break
            time.sleep(0.05)
        clients = []
        for i in range(args.clients):
            c = pickerd_client.Client(sock)
            c.create_session(f"s{i}", 640, 480)
            s = c.session(f"s{i}")
            s.select_album("A")
            clients.append(s)
        latencies = [[] for _ in clients]
        stop = time.monotonic() + args.seconds
        def loop(i):
            s = clients[i]
            while time.monotonic() < stop:
                t = time.perf_counter()
                s.toggle(1)
                latencies[i].append(time.perf_counter() - t)
        threads = [threading.Thread(target=loop, args=(i,)) for i in range(len(clients))]
        start = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - start
        all_ms = sorted(x * 1000 for xs in latencies for x in xs)
        p = lambda q: all_ms[min(len(all_ms) - 1, int(q * len(all_ms)))]
        print(f"{args.clients} clients, {len(all_ms)} toggles in {elapsed:.1f} s: {len(all_ms) / elapsed:.0f} toggles/s, "
              f"latency p50 {statistics.median(all_ms):.1f} ms, p99 {p(0.99):.1f} ms, max {all_ms[-1]:.1f} ms")
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
