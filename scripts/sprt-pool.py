#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Pools the game pairs of one SPRT played in several parts: journals
(`match.jsonl` of `koma match --records DIR`) and counts written down
before a journal was lost, and gives the score, the Elo by pairs with
its 95 % interval and the log-likelihood ratio, by the formulas `koma
match` uses (crates/match/src/stats.rs: logistic Elo, the generalized
SPRT on the pentanomial of pairs).

    scripts/sprt-pool.py [--pairs L,LD,D,WD,W] [--elo0 0] [--elo1 10] [JOURNAL ...]

--pairs adds counts of pairs scoring 0, ½, 1, 1½ and 2 points for
engine 1 (a table of docs/strength/ gives them so). Only finished pairs
count, as in `koma match --resume`. Pool only parts that played the same
two searches (the node counts of `scripts/tree-size.py` tell), at the
same control.

For example, the counts alone of search.md's first reduced-depth test:

    scripts/sprt-pool.py --pairs 110,4,253,4,129
    # pairs 500 (110, 4, 253, 4, 129): score 51.9 %, Elo +13.2 ± 21.2, LLR 0.71 (bounds -2.94, 2.94): continue

which is what `koma match` printed for them.
"""
import argparse
import json
import math
import sys

POINTS = [0.0, 0.25, 0.5, 0.75, 1.0]


def journal_pairs(path):
    """The pentanomial of a journal's finished pairs."""
    games = {}
    with open(path) as journal:
        for number, line in enumerate(journal):
            if number == 0 or not line.strip():
                continue  # the first line is the match's settings
            game = json.loads(line)
            games[game["round"]] = game
    by_pair = {}
    for game in games.values():
        winner = game["winner"]
        score = 0.5 if winner is None else (1.0 if winner == game["engine1"] else 0.0)
        by_pair.setdefault(game["pair"], []).append(score)
    counts = [0] * 5
    for scores in by_pair.values():
        if len(scores) == 2:
            counts[round(sum(scores) * 2)] += 1
    return counts


def score_from_elo(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def elo_from_score(score):
    return -400 * math.log10(1 / score - 1)


def llr(counts, s0, s1):
    """The generalized SPRT's log-likelihood ratio of H1 (mean s1) against
    H0 (mean s0), as koma match's `generalized_llr`."""
    total = sum(counts)
    regularized = [(x, n if n else 1e-3) for x, n in zip(POINTS, counts)]
    weight = sum(n for _, n in regularized)
    sample = [(x, n / weight) for x, n in regularized]

    def multiplier(s):
        high = max(x - s for x, _ in sample)
        low = min(x - s for x, _ in sample)
        below, above = -1 / high, -1 / low
        for _ in range(100):
            middle = (below + above) / 2
            value = sum(p * (x - s) / (1 + middle * (x - s)) for x, p in sample)
            if value > 0:
                below = middle
            else:
                above = middle
        return (below + above) / 2

    l0, l1 = multiplier(s0), multiplier(s1)
    return total * sum(
        p * (math.log(1 + l0 * (x - s0)) - math.log(1 + l1 * (x - s1))) for x, p in sample
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", default="0,0,0,0,0", help="counts written down: L,LD,D,WD,W")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("journals", nargs="*")
    args = parser.parse_args()
    try:
        counts = [int(n) for n in args.pairs.split(",")]
    except ValueError:
        sys.exit(f"--pairs: five counts, as 110,4,253,4,129, not {args.pairs!r}")
    if len(counts) != 5 or min(counts) < 0:
        sys.exit(f"--pairs: five counts, as 110,4,253,4,129, not {args.pairs!r}")
    for path in args.journals:
        try:
            counts = [a + b for a, b in zip(counts, journal_pairs(path))]
        except (OSError, ValueError, KeyError) as error:
            sys.exit(f"{path}: not a koma match journal ({error})")
    total = sum(counts)
    if total == 0:
        sys.exit("no finished pair to count")
    mean = sum(x * n for x, n in zip(POINTS, counts)) / total
    variance = sum(n * (x - mean) ** 2 for x, n in zip(POINTS, counts)) / total
    spread = 1.96 * math.sqrt(variance / total)
    low, high = max(mean - spread, 1e-9), min(mean + spread, 1 - 1e-9)
    elo = elo_from_score(mean) if 0 < mean < 1 else math.copysign(math.inf, mean - 0.5)
    error = (elo_from_score(high) - elo_from_score(low)) / 2
    ratio = llr(counts, score_from_elo(args.elo0), score_from_elo(args.elo1))
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    decision = "H1 accepted" if ratio >= upper else "H0 accepted" if ratio <= lower else "continue"
    print(
        f"pairs {total} ({', '.join(map(str, counts))}): score {mean * 100:.1f} %, "
        f"Elo {elo:+.1f} ± {error:.1f}, LLR {ratio:.2f} (bounds {lower:.2f}, {upper:.2f}): {decision}"
    )


if __name__ == "__main__":
    main()
