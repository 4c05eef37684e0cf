#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Each level's Elo on Koma's scale, from the ladder's results
(scripts/levels-ladder.sh): level 1 at 0, each level the one below plus
its match's Elo by game pairs, the errors added in quadrature.

    scripts/levels-table.py LADDER_DIR...

For each ladder (a folder ladder-VARIANT, or the RESULTS folder the
ladder kept, such as docs/strength/ladders/shogi-gen7), prints the
table of its matches that docs/LEVELS.md shows (level 20 against 19
too, where that was played on a clock) and the list of Elos, rounded
to tens, that web/src/levels.ts holds, to level 19; then one table of
every ladder's Elos by level, LEVELS.md's first. A ladder's scale stops
at the first pair not yet played or not yet finished, or at the first
level that did not beat the one below (the scale means nothing past a
level that is not stronger).
"""
import json
import math
import pathlib
import sys


# Level 20 is the full engine on the game's clock: its match against 19
# (played on a clock, LEVELS.md) gets a row, but its worth is the clock's,
# so the lists for levels.ts and the table of levels stop at 19.
LAST_CAPPED_LEVEL = 19


def ladder(folder):
    """The ladder's match rows and its levels' Elos, level 1 first."""
    elo, error, elos, rows = 0.0, 0.0, [0], []
    for lower in range(1, 20):
        try:
            result = json.loads((folder / f"L{lower + 1}-L{lower}.json").read_text())
        except (OSError, ValueError):
            break
        if result["wins"] + result["losses"] + result["draws"] < result["games"]:
            break
        step, step_error = result["pair_elo"], result["pair_elo_error"] or 0.0
        elo, error = elo + step, math.hypot(error, step_error)
        drawn = f"–{result['draws']}" if result["draws"] else ""
        rows.append(
            f"| {lower + 1} against {lower} | {result['wins']}–{result['losses']}{drawn} "
            f"| {step:+.0f} ± {step_error:.0f} | {round(elo, -1):,.0f} ± {error:.0f} |"
        )
        if result["wins"] <= result["losses"]:
            print(f"{folder}: level {lower + 1} did not beat level {lower}", file=sys.stderr)
            break
        if lower + 1 <= LAST_CAPPED_LEVEL:
            elos.append(int(round(elo, -1)))
    return rows, elos


def main(argv):
    if not argv:
        sys.exit(__doc__)
    columns = []
    for folder in map(pathlib.Path, argv):
        rows, elos = ladder(folder)
        name = folder.name.removeprefix("ladder-")
        columns.append((name, elos))
        print(f"{name}:")
        print("| match | won–lost | Elo (pairs) | level's Elo, its error |")
        print("|---|---|---|---|")
        print("\n".join(rows))
        print(elos)
        print()
    print("| level | " + " | ".join(name for name, _ in columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for level in range(max(len(elos) for _, elos in columns)):
        cells = [f"{elos[level]:,}" if level < len(elos) else "" for _, elos in columns]
        print(f"| {level + 1} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
