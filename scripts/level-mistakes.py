#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A measurement aid: how often each playing level errs, as the full
engine judges its moves in the levels' ladder games (docs/STRENGTH.md,
"What a level is worth").

    scripts/level-mistakes.py KOMA NODES GAMES DIR...

Reviews the first GAMES records (game-*.kif) of each DIR, a pair's folder
of scripts/levels-ladder.sh, with `koma analyze --nodes NODES`, and sums
each side's counts under the player's name (level-N). Prints one line per
game as it goes, then a table per level: moves, accuracy (the mean over
moves), and inaccuracies, mistakes and blunders per 100 moves. The random
opening plies count with the side that played them.
"""
import pathlib
import re
import subprocess
import sys

SIDE = re.compile(
    r"^(?:Sente|Gote) \((level-\d+)\): (\d+) moves, accuracy ([\d.]+) %, "
    r"(\d+) inaccurac(?:y|ies), (\d+) mistakes?, (\d+) blunders?"
)


def review(koma, nodes, record):
    """The two sides of one record: (level, moves, accuracy, counts...)."""
    done = subprocess.run(
        [koma, "analyze", "--nodes", str(nodes), str(record)],
        capture_output=True,
        text=True,
    )
    sides = [SIDE.match(line) for line in done.stdout.splitlines()]
    sides = [side.groups() for side in sides if side]
    if done.returncode != 0 or len(sides) != 2:
        sys.exit(f"{record}: {done.stderr.strip() or 'no summary'}")
    return sides


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    koma, nodes, games, dirs = argv[0], int(argv[1]), int(argv[2]), argv[3:]
    totals = {}
    for folder in dirs:
        for record in sorted(pathlib.Path(folder).glob("game-*.kif"))[:games]:
            for level, moves, accuracy, inaccuracies, mistakes, blunders in review(
                koma, nodes, record
            ):
                total = totals.setdefault(level, [0, 0.0, 0, 0, 0])
                moves = int(moves)
                total[0] += moves
                total[1] += float(accuracy) * moves
                total[2] += int(inaccuracies)
                total[3] += int(mistakes)
                total[4] += int(blunders)
            print(f"{record}", flush=True)
    print()
    print("| level | moves | accuracy | inaccuracies | mistakes | blunders |")
    print("|---|---|---|---|---|---|")
    for level in sorted(totals, key=lambda name: int(name.split("-")[1])):
        moves, accuracy, inaccuracies, mistakes, blunders = totals[level]
        per100 = lambda count: f"{100 * count / moves:.1f}"
        print(
            f"| {level.split('-')[1]} | {moves:,} | {accuracy / moves:.1f} % | "
            f"{per100(inaccuracies)} | {per100(mistakes)} | {per100(blunders)} |"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
