#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Each level's Elo on Koma's scale, from the ladder's results
(scripts/levels-ladder.sh): level 1 at 0, each level the one below plus
its match's Elo by game pairs, the errors added in quadrature.

    scripts/levels-table.py LADDER_DIR

Prints the table of matches that docs/STRENGTH.md ("What a level is
worth") shows, and the list of Elos, rounded to tens, that
web/src/levels.ts holds. It stops at the first pair not yet played or
not yet finished, or at the first level that did not beat the one below
(the scale means nothing past a level that is not stronger).
"""
import json
import math
import pathlib
import sys


def main(argv):
    if len(argv) != 1:
        sys.exit(__doc__)
    ladder = pathlib.Path(argv[0])
    elo, error, elos = 0.0, 0.0, [0]
    print("| match | won–lost | Elo (pairs) | level's Elo, its error |")
    print("|---|---|---|---|")
    for lower in range(1, 20):
        path = ladder / f"L{lower + 1}-L{lower}.json"
        try:
            result = json.loads(path.read_text())
        except (OSError, ValueError):
            break
        if result["wins"] + result["losses"] + result["draws"] < result["games"]:
            break
        step, step_error = result["pair_elo"], result["pair_elo_error"] or 0.0
        elo, error = elo + step, math.hypot(error, step_error)
        drawn = f"–{result['draws']}" if result["draws"] else ""
        print(
            f"| {lower + 1} against {lower} | {result['wins']}–{result['losses']}{drawn} "
            f"| {step:+.0f} ± {step_error:.0f} | {round(elo, -1):,.0f} ± {error:.0f} |"
        )
        if result["wins"] <= result["losses"]:
            print(f"level {lower + 1} did not beat level {lower}: the scale stops", file=sys.stderr)
            break
        elos.append(int(round(elo, -1)))
    print()
    print(elos)


if __name__ == "__main__":
    main(sys.argv[1:])
