#!/usr/bin/env bash
# The ladder of docs/LEVELS.md: each level from
# FROM+1 to TO plays the one below it, 100 games (50 random openings of 4
# plies, both colours), with no clock. A level caps depth and nodes, so the
# games do not depend on how busy the machine is; pin it with taskset if
# other work must keep a core.
#
#   scripts/levels-ladder.sh FROM TO [VARIANT]
#
# KOMA (default target/release/koma) is the engine; records and each
# match's journal go to $LADDER_DIR (default ~/.cache/koma/records/
# ladder-VARIANT), one folder per pair, so that a stopped ladder resumes
# where it stopped when run again. Each pair's result is one line of JSON
# in PAIR.json beside its folder, and one line on standard output.
#
# CONCURRENCY=N plays N games of a pair at a time (default 1): a pair
# that a core would need hours for can have both; the games are capped by
# nodes, so sharing the machine does not change how they are played.
#
# RESULTS=DIR keeps each finished pair's PAIR.json in DIR as well, and
# skips a pair whose finished result DIR already holds; it also keeps a
# copy of the pair's journal, PAIR.jsonl (its finished games, saved each
# minute), and starts a pair with no journal in LADDER_DIR from that
# copy. A ladder's results committed to the repository outlive a machine
# whose cache is lost: on a new one the ladder goes on from the first
# game they lack, given the same KOMA path (a journal names it) and a
# build of the same commit there.
#
# SEED=N gives each pair the seed N + its lower level (default 8000), so
# that a ladder run again can draw new openings.
#
# OPENINGS=FILE plays every pair from the same openings, in order, each
# opening twice (scripts/balanced-openings.py writes such a file), where
# by default each pair draws its own random openings and the upper level
# judges them even within 300 centipawns at depth 6. Minishogi's top
# needs deeper, evener openings (docs/LEVELS.md, "The top of
# minishogi"). Give such a run its own LADDER_DIR: a journal resumes only
# with the settings it began with.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 FROM TO [VARIANT]" >&2
  exit 2
fi
from=$1
to=$2
if [ "$from" -lt 1 ] || [ "$to" -gt 19 ]; then
  # Level 20 has no cap: with no clock it would search the match's 10^9
  # nodes a move.
  echo "$0: levels run from 1 to 19 (level 20 is the full engine, on a clock)" >&2
  exit 2
fi
variant=${3:-shogi}
koma=${KOMA:-target/release/koma}
dir=${LADDER_DIR:-$HOME/.cache/koma/records/ladder-$variant}
games=${GAMES:-100}
concurrency=${CONCURRENCY:-1}
seed=${SEED:-8000}
if [ -n "${OPENINGS:-}" ]; then
  openings=(--openings "$OPENINGS")
else
  openings=(--random-plies 4)
fi
results=${RESULTS:-}
mkdir -p "$dir" ${results:+"$results"}

# Whether FILE holds a pair's result with all its games played.
finished() {
  python3 -c 'import json, sys
result = json.load(open(sys.argv[1]))
sys.exit(result["wins"] + result["losses"] + result["draws"] < result["games"])' "$1" 2>/dev/null
}

# Copies the journal FROM's whole lines to TO, through a file renamed into
# place, so that TO never holds half a line or half a copy.
save_journal() {
  if [ -s "$1" ]; then
    head -n "$(wc -l <"$1")" "$1" >"$2.part" && mv "$2.part" "$2"
  fi
}

for ((lower = from; lower < to; lower++)); do
  upper=$((lower + 1))
  pair="L$upper-L$lower"
  if [ -n "$results" ] && finished "$results/$pair.json"; then
    echo "$pair $(cat "$results/$pair.json")"
    continue
  fi
  journal="$dir/$pair/match.jsonl"
  if [ -n "$results" ]; then
    if [ -s "$results/$pair.jsonl" ] && [ ! -s "$journal" ]; then
      mkdir -p "$dir/$pair"
      cp "$results/$pair.jsonl" "$journal"
    fi
    # The saver stops with the ladder, whichever way the ladder ends.
    while sleep 60 && kill -0 $$ 2>/dev/null; do save_journal "$journal" "$results/$pair.jsonl"; done &
    saver=$!
  fi
  "$koma" match --variant "$variant" --games "$games" --concurrency "$concurrency" \
    --nodes 1000000000 --hang-timeout 600 \
    "${openings[@]}" --seed $((seed + lower)) \
    --max-plies 400 --resign-moves 4 --resign-score 2000 \
    --each "cmd=$koma usi" \
    --engine1 name="level-$upper" option.Skill=$upper \
    --engine2 name="level-$lower" option.Skill=$lower \
    --records "$dir/$pair" --resume --json >"$dir/$pair.json"
  if [ -n "$results" ]; then
    kill "$saver" 2>/dev/null || true
    save_journal "$journal" "$results/$pair.jsonl"
    if finished "$dir/$pair.json"; then
      cp "$dir/$pair.json" "$results/$pair.json"
    fi
  fi
  echo "$pair $(cat "$dir/$pair.json")"
done
