#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A measurement aid: how many moves of each side `koma analyze` labels
inaccuracies, mistakes and blunders, over a folder of game records, at one
or more node budgets.

    scripts/review-blunders.py KOMA NODES[,NODES...] RECORD... [--jobs N]

For example, the professional games of testdata/records and a folder of
more, at 50,000, 150,000 (the default) and 500,000 nodes a position:

    scripts/review-blunders.py target/release/koma 50000,150000,500000 \\
        testdata/records/oui202106290101.kif ~/.cache/koma/pro-games/pro/*

A node budget makes each review the same on every run (one thread), so
the counts do not depend on the machine's load; only the time does. The
script prints one line per game and budget as it goes, then a table per
budget: the median and mean of blunders per side, the share of sides
with none, and the review's time per position. Reviews that fail (a
record Koma cannot read) are listed and left out of the table.
"""
import re
import statistics
import subprocess
import sys
import time

SIDE = re.compile(
    r"^(Sente|Gote|White|Black)([^:]*): (\d+) moves, accuracy ([\d.]+) %, "
    r"(\d+) inaccurac(?:y|ies), (\d+) mistakes?, (\d+) blunders?"
)


def review(koma, nodes, record):
    """The two sides' counts and the review's time, or the error."""
    started = time.monotonic()
    done = subprocess.run(
        [koma, "analyze", "--nodes", str(nodes), record],
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - started
    sides = []
    for line in done.stdout.splitlines():
        match = SIDE.match(line)
        if match:
            player, moves, accuracy, inaccuracies, mistakes, blunders = match.groups()[1:]
            sides.append(
                {
                    # "Sente (level-4): ...": the player's name, if given.
                    "name": player.strip().removeprefix("(").removesuffix(")"),
                    "moves": int(moves),
                    "accuracy": float(accuracy),
                    "inaccuracies": int(inaccuracies),
                    "mistakes": int(mistakes),
                    "blunders": int(blunders),
                }
            )
    if done.returncode != 0 or len(sides) != 2:
        return None, seconds, (done.stderr.strip() or done.stdout[-300:]).splitlines()[-1:]
    return sides, seconds, None


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    koma, budgets, records = argv[0], [int(n) for n in argv[1].split(",")], argv[2:]
    results = {nodes: [] for nodes in budgets}
    failed = []
    for nodes in budgets:
        for record in records:
            sides, seconds, error = review(koma, nodes, record)
            if sides is None:
                failed.append((nodes, record, error))
                print(f"{nodes:>8} {record}: failed: {error}", flush=True)
                continue
            positions = sum(side["moves"] for side in sides) + 1
            results[nodes].append((sides, seconds / positions))
            counts = " / ".join(str(side["blunders"]) for side in sides)
            print(f"{nodes:>8} {record}: blunders {counts}, {seconds:.1f} s", flush=True)
    print()
    print("| nodes a position | games | blunders per side, median | mean "
          "| sides without one | mistakes per side, mean | s a position |")
    print("|---|---|---|---|---|---|---|")
    for nodes in budgets:
        games = results[nodes]
        if not games:
            continue
        blunders = [side["blunders"] for sides, _ in games for side in sides]
        mistakes = [side["mistakes"] for sides, _ in games for side in sides]
        clean = sum(1 for b in blunders if b == 0) / len(blunders)
        per_position = statistics.mean(t for _, t in games)
        print(
            f"| {nodes:,} | {len(games)} | {statistics.median(blunders)} "
            f"| {statistics.mean(blunders):.2f} | {100 * clean:.0f} % "
            f"| {statistics.mean(mistakes):.2f} | {per_position:.2f} |"
        )
    for nodes, record, error in failed:
        print(f"failed at {nodes}: {record}: {error}")


if __name__ == "__main__":
    main(sys.argv[1:])
