#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One generation of a game's network, the loop of docs/TRAINING.md
# ("The loop, one generation at a time"):
#
#   1. the last generation plays itself (`koma selfplay`) into
#      $CACHE/data/VARIANT-genN until the directory holds POSITIONS;
#   2. one epoch from the last generation on that data (and ALSO_DATA),
#      half the target the game's result (λ 0.5, Adam's rate 1e-4): the network
#      $CACHE/nnue/VARIANT-genN.nnue;
#   3. an SPRT in self-play (elo0 0, elo1 10), the new network against
#      the last one, journal and records in $CACHE/records/sprt-VARIANT-genN,
#      its result as one line of JSON in $CACHE/records/sprt-VARIANT-genN.json.
#
#   scripts/network-generation.sh VARIANT N
#
# Every step keeps its state on disk and the script, run again, goes on
# where it stopped: self-play grows its directory (a new seed each run,
# taken from the positions already held, so that it plays new games), the
# trained network is kept once written, the SPRT resumes from its journal.
# Nothing here is needed in the repository until the SPRT accepts the
# network; then `zstd -19 $CACHE/nnue/VARIANT-genN.nnue -o
# crates/engine/nets/VARIANT.nnue.zst` embeds it (docs/TRAINING.md says
# what else to update).
#
# Settings from the environment:
#   KOMA         the engine (default target/release/koma)
#   PREVIOUS     the last generation's network file (default: the one
#                embedded in crates/engine/nets/VARIANT.nnue.zst, unpacked
#                to $CACHE/nnue/VARIANT-genN-previous.nnue)
#   CACHE        where the state goes (default ~/.cache/koma)
#   NODES        self-play's nodes a move (shogi 10000, the small boards 4000)
#   POSITIONS    self-play's target (shogi 370000, the small boards 170000)
#   THREADS      self-play's threads (default: every core)
#   ALSO_DATA    more data directories to train on beside this generation's,
#                separated by spaces (for example the last generation's own
#                data: each generation so far learned less from its own play
#                alone than the one before)
#   TC           the SPRT's clock (shogi 2+0.05, the small boards 1+0.02)
#   CONCURRENCY  the SPRT's games at a time (default 2, one per core)
#   GAMES        the SPRT's most games (default 800)
#   OPENINGS     a file of the SPRT's openings (USI `position` lines, as
#                scripts/balanced-openings.py writes them; cycled when
#                there are fewer than the pairs), in place of random 4-ply
#                openings: minishogi's random openings decide most games
#                whoever plays them (docs/strength/networks.md, "Minishogi's
#                generation 3, tried"); the SPRT's journal and records then
#                go to sprt-VARIANT-genN-NAME, NAME the file's without its
#                extension, so that it never resumes one from other openings
set -euo pipefail

if [ $# -ne 2 ] || ! [[ $2 =~ ^[0-9]+$ ]] || [ "$2" -lt 2 ]; then
  echo "usage: $0 VARIANT N   (N >= 2: the generation to make)" >&2
  exit 2
fi
variant=$1
gen=$2
case $variant in
  shogi) nodes=10000 positions=370000 tc=2+0.05 ;;
  minishogi | spear) nodes=4000 positions=170000 tc=1+0.02 ;;
  *)
    echo "$0: no network for '$variant' (shogi, minishogi or spear)" >&2
    exit 2
    ;;
esac
koma=${KOMA:-target/release/koma}
cache=${CACHE:-$HOME/.cache/koma}
nodes=${NODES:-$nodes}
positions=${POSITIONS:-$positions}
tc=${TC:-$tc}
concurrency=${CONCURRENCY:-2}
games=${GAMES:-800}
# `koma train` checks its data too; this runs first so that a mistyped
# directory stops the script before an hour of self-play, not after it.
also_data=()
for dir in ${ALSO_DATA:-}; do
  if [ ! -s "$dir/positions.bin" ]; then
    echo "$0: ALSO_DATA names $dir, which holds no positions.bin" >&2
    exit 1
  fi
  also_data+=(--data "$dir")
done
threads=()
if [ -n "${THREADS:-}" ]; then
  threads=(--threads "$THREADS")
fi
openings=(--random-plies 4)
sprt_suffix=
if [ -n "${OPENINGS:-}" ]; then
  if [ ! -s "$OPENINGS" ]; then
    echo "$0: OPENINGS names $OPENINGS, which is missing or empty" >&2
    exit 1
  fi
  openings=(--openings "$OPENINGS")
  openings_name=$(basename "$OPENINGS")
  sprt_suffix="-${openings_name%.*}"
fi

data="$cache/data/$variant-gen$gen"
network="$cache/nnue/$variant-gen$gen.nnue"
sprt="$cache/records/sprt-$variant-gen$gen$sprt_suffix"
mkdir -p "$cache/data" "$cache/nnue" "$cache/records"

if [ -n "${PREVIOUS:-}" ]; then
  previous=$PREVIOUS
else
  previous="$cache/nnue/$variant-gen$gen-previous.nnue"
  if [ ! -s "$previous" ]; then
    here=$(cd "$(dirname "$0")/.." && pwd)
    zstd -q -d -f "$here/crates/engine/nets/$variant.nnue.zst" -o "$previous"
  fi
fi
if [ ! -s "$previous" ]; then
  echo "$0: no last generation at $previous" >&2
  exit 1
fi

echo "== self-play: $data, $positions positions at $nodes nodes a move"
held=0
if [ -f "$data/positions.bin" ]; then
  held=$(($(stat -c %s "$data/positions.bin") / 48))
fi
if [ "$held" -lt "$positions" ]; then
  "$koma" selfplay "$variant" --eval-file "$previous" --nodes "$nodes" "${threads[@]}" \
    --seed $((gen * 1000000 + held)) --positions "$positions" --out "$data"
fi

echo "== training: $network"
if [ ! -s "$network" ]; then
  "$koma" train "$variant" --data "$data" "${also_data[@]}" --init "$previous" --epochs 1 --batch 4096 \
    --rate 1e-4 --lambda 0.5 --state "$cache/train/$variant-gen$gen" --out "$network.part"
  mv "$network.part" "$network"
fi
sha256sum "$network"

echo "== SPRT: generation $gen against the last, $tc, $sprt"
"$koma" match --variant "$variant" --games "$games" --tc "$tc" --concurrency "$concurrency" \
  "${openings[@]}" --seed $((gen * 100 + 1)) --resign-moves 4 --resign-score 2000 \
  --sprt elo0=0 elo1=10 \
  --each "cmd=$koma usi" option.Threads=1 option.USI_Hash=32 \
  --engine1 name="gen$gen" option.EvalFile="$network" \
  --engine2 name="gen$((gen - 1))" option.EvalFile="$previous" \
  --records "$sprt" --resume --json >"$sprt.json"
cat "$sprt.json"
