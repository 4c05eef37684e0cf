#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Random openings that a deep search finds even: a file of USI `position`
lines for `koma match --openings`, and so for every pair of a ladder
(OPENINGS=FILE scripts/levels-ladder.sh ...).

    scripts/balanced-openings.py VARIANT COUNT OUT [--plies 4] [--depth 12]
        [--cp 100] [--seed 1] [--koma target/release/koma]

`koma match --balance-cp 0` draws random openings of --plies plies (its
games at depth 1 only carry them into a record); the full engine, one
thread, then searches each to --depth, and an opening is kept when its
value lies within --cp centipawns and is not a mate. Drawing goes on until
COUNT are kept. Every judged opening is printed with its value on
standard error, so the spread says how even the game's openings are.

Minishogi needs this: openings judged at depth 6 within 300 cp are won by
Sente at the top levels whatever the levels (docs/LEVELS.md).
"""
import argparse
import os
import pathlib
import subprocess
import sys
import tempfile


def random_openings(koma, variant, plies, count, seed):
    """`count` random openings as USI `position` lines, cut to `plies` moves."""
    with tempfile.TemporaryDirectory() as scratch:
        records = pathlib.Path(scratch) / "openings.usi"
        # The match's games go to stderr too; kept only to say why it failed.
        done = subprocess.run(
            [koma, "match", "--variant", variant, "--games", str(2 * count),
             "--depth", "1", "--random-plies", str(plies), "--balance-cp", "0",
             "--seed", str(seed), "--each", f"cmd={koma} usi",
             "--engine1", "name=a", "--engine2", "name=b",
             "--records-file", str(records)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"koma match failed drawing openings:\n{done.stderr.strip()[-2000:]}")
        lines = records.read_text().splitlines()
    openings = []
    # Each opening was played twice, colours swapped: take every other game.
    for line in lines[::2]:
        head, _, moves = line.partition(" moves ")
        if not moves:
            continue
        openings.append(f"{head} moves {' '.join(moves.split()[:plies])}")
    return openings


class Engine:
    """The full engine over USI, one thread, to judge openings."""

    def __init__(self, koma, variant):
        self.process = subprocess.Popen(
            [koma, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("usi")
        self.wait("usiok")
        self.send("setoption name Threads value 1")
        self.send("setoption name USI_Hash value 64")
        if variant != "shogi":
            self.send(f"setoption name USI_Variant value {variant}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait(self, word):
        for line in self.process.stdout:
            if line.split()[:1] == [word]:
                return line
        raise RuntimeError(f"the engine ended before {word}")

    def judge(self, position, depth):
        """The value of `position` at `depth`: ('cp', n) or ('mate', n)."""
        self.send("usinewgame")
        self.send(position)
        self.send(f"go depth {depth}")
        score = None
        for line in self.process.stdout:
            words = line.split()
            if words[:1] == ["info"] and "score" in words:
                at = words.index("score")
                score = (words[at + 1], int(words[at + 2]))
            elif words[:1] == ["bestmove"]:
                return score
        raise RuntimeError("the engine ended while searching")

    def close(self):
        self.send("quit")
        self.process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=["shogi", "minishogi", "spear"])
    parser.add_argument("count", type=int)
    parser.add_argument("out")
    parser.add_argument("--plies", type=int, default=4)
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--cp", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--koma", default=os.environ.get("KOMA", "target/release/koma"))
    args = parser.parse_args()

    engine = Engine(args.koma, args.variant)
    kept, judged, seed = [], 0, args.seed
    for _batch in range(100):
        if len(kept) == args.count:
            break
        for position in random_openings(args.koma, args.variant, args.plies, args.count, seed):
            kind, value = engine.judge(position, args.depth) or ("none", 0)
            judged += 1
            even = kind == "cp" and abs(value) <= args.cp
            print(f"{kind} {value:+d} {'kept' if even else '-'} {position}", file=sys.stderr)
            if even:
                kept.append(position)
                if len(kept) == args.count:
                    break
        seed += 1000
    engine.close()
    if len(kept) < args.count:
        sys.exit(f"only {len(kept)} of {judged} openings were within {args.cp} cp; "
                 f"none written (try a wider --cp)")
    header = (f"# {args.count} random openings of {args.plies} plies ({args.variant}) "
              f"within {args.cp} cp at depth {args.depth}, kept of {judged} judged; "
              f"scripts/balanced-openings.py, seed {args.seed}\n")
    pathlib.Path(args.out).write_text(header + "".join(p + "\n" for p in kept))
    print(f"{len(kept)} of {judged} openings kept in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
