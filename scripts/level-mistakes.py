#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A measurement aid: how often each playing level errs, as the full
engine judges its moves in the levels' ladder games (docs/LEVELS.md).

    scripts/level-mistakes.py KOMA NODES GAMES DIR...

Reviews the first GAMES records (game-*.kif) of each DIR, a pair's folder
of scripts/levels-ladder.sh, with `koma analyze --nodes NODES`, and sums
each side's counts under the player's name (level-N). Prints one line per
game as it goes, then a table per level: moves, accuracy (the mean over
moves), and inaccuracies, mistakes and blunders per 100 moves. The random
opening plies count with the side that played them.
"""
import importlib.util
import pathlib
import sys

# review-blunders.py reads `koma analyze`'s summary lines; its name is no
# module name, so it is loaded from its path.
_spec = importlib.util.spec_from_file_location(
    "review_blunders", pathlib.Path(__file__).with_name("review-blunders.py")
)
review_blunders = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(review_blunders)


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    koma, nodes, games, dirs = argv[0], int(argv[1]), int(argv[2]), argv[3:]
    totals = {}
    for folder in dirs:
        for record in sorted(pathlib.Path(folder).glob("game-*.kif"))[:games]:
            sides, _, error = review_blunders.review(koma, nodes, str(record))
            if sides is None:
                sys.exit(f"{record}: {error}")
            for side in sides:
                total = totals.setdefault(side["name"], [0, 0.0, 0, 0, 0])
                total[0] += side["moves"]
                total[1] += side["accuracy"] * side["moves"]
                total[2] += side["inaccuracies"]
                total[3] += side["mistakes"]
                total[4] += side["blunders"]
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
