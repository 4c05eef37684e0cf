#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A measurement aid: how two engines' values agree over the records of a
`koma match` (its `--records` directory of KIF files, whose comments carry
each engine's value and depth with its move: `*+1.25/12`, `*mate 5/9`).

    scripts/value-agreement.py RECORDS-DIRECTORY [ENGINE-NAME]

ENGINE-NAME (default `Koma`) is the engine whose view is taken: each of its
values is paired with the other engine's value at the next move (the same
line, turned to the named engine's side), mates left out. The output gives,
by bands of the named engine's value, how many moves fell there and the
other engine's median; then the same the other way round; then how many
games the named engine lost after having valued its side at +3 or more.
Values are in each engine's own pawns.
"""
import glob
import re
import statistics
import sys

MOVE = re.compile(r"\s*(\d+) ")
VALUE = re.compile(r"\*([+-]?[\d.]+)/\d+")
BANDS = [(-30, -6), (-6, -3), (-3, 3), (3, 6), (6, 12), (12, 30)]


def read_game(path, name):
    """The named engine's values and the other's (both from the named
    engine's side) by ply, mates left out, and whether the named engine
    lost."""
    lines = open(path, "rb").read().decode("shift_jis", errors="replace").splitlines()
    sente = next(line[3:] for line in lines if line.startswith("先手："))
    named_side = 0 if sente.startswith(name) else 1
    ply = 0
    named, other = {}, {}
    for line in lines:
        move = MOVE.match(line)
        if move:
            ply = int(move.group(1))
            continue
        side = (ply - 1) % 2
        value = VALUE.match(line)
        if value:
            v = float(value.group(1))
            if side == named_side:
                named[ply] = v
            else:
                other[ply] = -v
    ending = next((line for line in lines if line.startswith("まで")), "")
    sente_won = "先手の勝ち" in ending
    gote_won = "後手の勝ち" in ending
    lost = (sente_won and named_side == 1) or (gote_won and named_side == 0)
    return named, other, lost


def bands(pairs, label_from, label_to):
    print(f"{label_from} value | moves | {label_to} median")
    for low, high in BANDS:
        others = [b for a, b in pairs if low <= a < high]
        if others:
            print(f"{low:+d} to {high:+d} | {len(others)} | {statistics.median(others):+.2f}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    name = sys.argv[2] if len(sys.argv) > 2 else "Koma"
    pairs = []
    games = confident = confident_lost = lost_total = 0
    for path in sorted(glob.glob(f"{sys.argv[1]}/*.kif")):
        named, other, lost = read_game(path, name)
        games += 1
        lost_total += lost
        if any(v >= 3 for v in named.values()):
            confident += 1
            confident_lost += lost
        for ply, value in named.items():
            answer = other.get(ply + 1)
            if answer is not None and abs(value) < 30 and abs(answer) < 30:
                pairs.append((value, answer))
    print(f"{games} games, {len(pairs)} pairs of values")
    bands(pairs, name, "the other's")
    bands([(b, a) for a, b in pairs], "the other's", name)
    print(
        f"{name} valued its side at +3 or more in {confident} games "
        f"and lost {confident_lost} of them ({lost_total} losses in all)"
    )


if __name__ == "__main__":
    main()
