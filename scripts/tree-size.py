#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A measurement aid: the nodes a USI engine needs to reach each depth,
summed over a file of positions (one `position ...` line each).

    scripts/tree-size.py "ENGINE COMMAND" DEPTH POSITIONS [USI-COMMAND ...]

For example, Koma with and without its network against Fairy-Stockfish:

    scripts/tree-size.py "target/release/koma usi" 11 scripts/tree-size-shogi.txt \\
        "setoption name USI_Hash value 64"
    scripts/tree-size.py /tmp/fsf/src/stockfish 11 scripts/tree-size-shogi.txt \\
        "setoption name USI_Hash value 64" "setoption name Threads value 1"

Each position is a new game (`usinewgame`), searched with `go depth
DEPTH`. The last line gives, for the last four depths, the nodes summed
over the positions, and the median of the positions' nodes at DEPTH.
A fixed depth makes the count the same on every run with one thread,
whatever the machine's load; only the time varies. The engine's command
is split as a shell would (`koma usi`, or FSF's binary alone).

`tree-size-shogi.txt` holds 16 middle-game positions: plies 20 and 40 of
Koma's games against FSF at 10 s + 0.1 s (docs/STRENGTH.md).
"""
import re
import shlex
import subprocess
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    engine, depth, positions = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    commands = sys.argv[4:]
    lines = [line.strip() for line in open(positions) if line.strip()]
    process = subprocess.Popen(shlex.split(engine), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(text):
        process.stdin.write(text + "\n")
        process.stdin.flush()

    def wait_for(prefix):
        for line in process.stdout:
            if line.startswith(prefix):
                return
        sys.exit(f"{engine} ended before {prefix!r}")

    send("usi")
    wait_for("usiok")
    for command in commands:
        send(command)
    send("isready")
    wait_for("readyok")
    totals = [0] * (depth + 1)
    at_depth = []
    for position in lines:
        send("usinewgame")
        send(position)
        send(f"go depth {depth}")
        nodes = {}
        for line in process.stdout:
            if line.startswith("bestmove"):
                break
            found = re.match(r"info depth (\d+) .*?nodes (\d+)", line)
            if found:
                nodes[int(found[1])] = int(found[2])
        if not nodes:
            sys.exit(f"no search information for {position}")
        deepest = max(nodes)
        for d in range(1, depth + 1):
            # A search that ends early (a mate found) counts its last depth.
            totals[d] += nodes.get(d, nodes[deepest])
        at_depth.append(nodes.get(depth, nodes[deepest]))
        print(f"{len(at_depth)}/{len(lines)}", end="\r", file=sys.stderr, flush=True)
    send("quit")
    process.wait()
    first = max(1, depth - 3)
    summary = " ".join(f"depth {d}: {totals[d]}" for d in range(first, depth + 1))
    print(f"{summary} | median at {depth}: {sorted(at_depth)[len(at_depth) // 2]}")


if __name__ == "__main__":
    main()
