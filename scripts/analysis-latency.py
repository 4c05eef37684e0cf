#!/usr/bin/env python3
"""How soon an analysis's first lines reach the board: the server's own
engine against one `koma worker` (docs/performance/reviews.md, "Analysis by a
worker").

Starts `koma serve --memory` twice on loopback ports 18301 and 18302 (the
second with --worker-keys and --analysis-engines 0, and a `koma worker`),
asks N analyses of the start position over the WebSocket, one at a time,
and prints the time from the request to the first "running" message.

Usage: scripts/analysis-latency.py [N] (KOMA_BIN: the koma binary,
target/release/koma by default). Needs `pip install websocket-client`.
"""
import json, os, signal, statistics, subprocess, sys, tempfile, time, urllib.request

import websocket

K = os.environ.get("KOMA_BIN", "target/release/koma")
KEY = "latency-test-key-0123456789"

def start(port, extra):
    p = subprocess.Popen([K, "serve", "--memory", "--port", str(port), "--analysis-seconds", "2"] + extra,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return p
        except Exception:
            time.sleep(0.1)
    raise SystemExit("no server")

def post(port, path, body):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    return json.load(urllib.request.urlopen(req))

def run(port, n):
    out = []
    for i in range(n):
        g = post(port, "/api/games", {"variant": "shogi"})
        ws = websocket.create_connection(f"ws://127.0.0.1:{port}/api/games/{g['id']}/ws")
        while json.loads(ws.recv()).get("type") != "state":
            pass
        t0 = time.monotonic()
        ws.send(json.dumps({"type": "analyse", "lines": 1}))
        while True:
            m = json.loads(ws.recv())
            if m.get("type") == "analysis" and m["status"] == "running":
                out.append(time.monotonic() - t0)
                break
        while json.loads(ws.recv()).get("status") not in ("done", "failed"):
            pass
        ws.close()
    return out

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
local = start(18301, ["--analysis-engines", "1"])
try:
    a = run(18301, n)
finally:
    local.terminate(); local.wait()
folder = tempfile.mkdtemp(prefix="koma-latency-")
keys, key = os.path.join(folder, "keys"), os.path.join(folder, "key")
open(keys, "w").write(f"t {KEY}\n")
open(key, "w").write(f"{KEY}\n")
remote = start(18302, ["--worker-keys", keys, "--analysis-engines", "0"])
w = subprocess.Popen([K, "worker", "--server", "http://127.0.0.1:18302/", "--key-file", key],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    time.sleep(1)
    b = run(18302, n)
finally:
    w.send_signal(signal.SIGTERM); w.wait(); remote.terminate(); remote.wait()
for name, xs in (("local engine", a), ("one koma worker", b)):
    xs = sorted(xs)
    print(f"{name}: median {statistics.median(xs)*1000:.0f} ms, min {xs[0]*1000:.0f}, max {xs[-1]*1000:.0f} (n={len(xs)})")
