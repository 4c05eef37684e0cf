#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A measurement aid: many games against the computer on one `koma serve`,
and how an unrelated person's moves and the server's memory fare meanwhile.

    scripts/computer-load.py KOMA [--games 150] [--level 20] [--seconds 60]
        [--variant spear] [--after 30] [-- SERVE-ARGUMENTS ...]

It starts `KOMA serve --port 0 --memory` (plus SERVE-ARGUMENTS), then
`--games` games against the computer at `--level`, each played by a person
who answers every computer move at once with a random legal move (the
computer's move arrives over the game's WebSocket). Beside them a person
plays a game against a person at the same server, one random move every
200 ms over HTTP, and the time of each answer is kept. After `--seconds`
the games' players leave (their WebSockets close), and the server is
watched `--after` seconds more.

It prints the server's resident memory (VmRSS) before, its peak (VmHWM)
during the load, 5 s and `--after` s after the players left, the unrelated
person's move latency (median, 90th percentile, max) during the load, the
computer moves received and the server's threads at their most.

Only the standard library: the WebSocket client is the little this needs
(text frames in, pings answered).
"""
import argparse
import base64
import http.client
import json
import os
import random
import socket
import statistics
import struct
import subprocess
import sys
import threading
import time


def status_field(pid, name):
    """A field of /proc/PID/status in kB (or a count for Threads)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(name + ":"):
                return int(line.split()[1])
    return 0


class Http:
    """One keep-alive connection: each player has its own (the server's
    rate limit is per connection)."""

    def __init__(self, port):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body)
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        for attempt in range(3):
            try:
                self.connection.request(method, path, body=data, headers=headers)
                reply = self.connection.getresponse()
                return reply.status, json.loads(reply.read() or b"null")
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        raise RuntimeError(f"{method} {path}: no answer")


class WebSocket:
    """A WebSocket client reading the server's text frames."""

    def __init__(self, port, path):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=120)
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.socket.recv(4096)
            if not chunk:
                raise RuntimeError("the WebSocket was refused")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(head.decode(errors="replace"))

    def exactly(self, n):
        while len(self.buffer) < n:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def send(self, opcode, payload):
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        else:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        self.socket.sendall(header + mask + masked)

    def receive(self):
        """The next text message, as JSON (pings answered on the way)."""
        message = b""
        while True:
            first, second = self.exactly(2)
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self.exactly(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self.exactly(8))
            payload = self.exactly(length)
            opcode = first & 0x0F
            if opcode == 0x9:
                self.send(0xA, payload)
            elif opcode == 0x8:
                raise EOFError
            elif opcode in (0x1, 0x0):
                message += payload
                if first & 0x80:
                    return json.loads(message)

    def close(self):
        try:
            self.socket.close()
        except OSError:
            pass


def computer_game(port, args, stop, counts, seed):
    """One person against the computer: answers each of its moves at once."""
    chance = random.Random(seed)
    http_ = Http(port)
    status, state = http_.call(
        "POST",
        "/api/games",
        {"variant": args.variant, "opponent": {"kind": "computer", "level": args.level}},
    )
    if status != 201:
        counts["refused"] += 1
        return
    game, token = state["id"], None
    token = next(iter(state["seats"].values()))
    socket_ = WebSocket(port, f"/api/games/{game}/ws")
    socket_.socket.settimeout(1.0)
    try:
        while not stop.is_set():
            if state["outcome"] or not state["legalMoves"]:
                break
            move = chance.choice(state["legalMoves"])
            ply = state["ply"]
            status, answer = http_.call(
                "POST", f"/api/games/{game}/moves", {"move": move, "ply": ply, "token": token}
            )
            if status != 200:
                counts["errors"] += 1
                break
            state = answer
            # The computer's reply: the first state with one move more.
            while not stop.is_set():
                try:
                    message = socket_.receive()
                except socket.timeout:
                    continue
                if message.get("type") == "state" and message["state"]["ply"] >= ply + 2:
                    state = message["state"]
                    counts["computer moves"] += 1
                    break
                if message.get("type") == "state" and message["state"]["outcome"]:
                    state = message["state"]
                    break
    except (EOFError, OSError, RuntimeError):
        counts["errors"] += 1
    finally:
        socket_.close()
        http_.connection.close()


def person(port, stop, latencies):
    """An unrelated game between two people at one screen: a random move
    every 200 ms, each answer timed."""
    chance = random.Random(7)
    http_ = Http(port)
    state = None
    while not stop.is_set():
        if state is None or state["outcome"] or not state["legalMoves"]:
            status, state = http_.call("POST", "/api/games", {"variant": "spear"})
            seats = state["seats"]
        move = chance.choice(state["legalMoves"])
        token = seats[state["turn"]]
        started = time.perf_counter()
        status, answer = http_.call(
            "POST",
            f"/api/games/{state['id']}/moves",
            {"move": move, "ply": state["ply"], "token": token},
        )
        latencies.append((time.perf_counter() - started) * 1000)
        state = answer if status == 200 else None
        time.sleep(0.2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("koma")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--level", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--variant", default="spear")
    parser.add_argument("--after", type=int, default=30)
    parser.add_argument("serve", nargs="*")
    args = parser.parse_args()
    server = subprocess.Popen(
        [args.koma, "serve", "--port", "0", "--memory", *args.serve],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()
        port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
        server.stdout.readline()
        time.sleep(1)
        pid = server.pid
        before = status_field(pid, "VmRSS")
        stop, leave = threading.Event(), threading.Event()
        counts = {"computer moves": 0, "errors": 0, "refused": 0}
        latencies = []
        most_threads = [0]

        def watch():
            while not leave.is_set():
                most_threads[0] = max(most_threads[0], status_field(pid, "Threads"))
                time.sleep(0.25)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        players = [
            threading.Thread(target=computer_game, args=(port, args, stop, counts, n), daemon=True)
            for n in range(args.games)
        ]
        for player in players:
            player.start()
        prober = threading.Thread(target=person, args=(port, stop, latencies), daemon=True)
        prober.start()
        time.sleep(args.seconds)
        stop.set()
        for player in players:
            player.join(10)
        prober.join(10)
        left = time.monotonic()
        peak = status_field(pid, "VmHWM")
        time.sleep(max(0.0, 5 - (time.monotonic() - left)))
        after_5 = status_field(pid, "VmRSS")
        time.sleep(max(0.0, args.after - (time.monotonic() - left)))
        after_n = status_field(pid, "VmRSS")
        leave.set()
        ordered = sorted(latencies)
        p90 = ordered[int(len(ordered) * 0.9)] if ordered else float("nan")
        print(f"server: {args.koma} serve --memory {' '.join(args.serve)}".rstrip())
        print(f"games against the computer: {args.games} at level {args.level} ({args.variant}), "
              f"{args.seconds} s; computer moves received: {counts['computer moves']}; "
              f"errors: {counts['errors']}; refused games: {counts['refused']}")
        print(f"resident memory: before {before / 1024:.0f} MB, peak {peak / 1024:.0f} MB, "
              f"5 s after {after_5 / 1024:.0f} MB, {args.after} s after {after_n / 1024:.0f} MB")
        print(f"threads at most: {most_threads[0]}")
        if ordered:
            print(f"unrelated person's move: {len(ordered)} moves, median "
                  f"{statistics.median(ordered):.1f} ms, p90 {p90:.1f} ms, max {ordered[-1]:.1f} ms")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    sys.exit(main())
