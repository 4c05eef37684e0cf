// Where a piece may be premoved or pre-dropped in the shogi games, and
// whether such a move promotes: the board widget asks while the other side
// is to move, when no legal list exists yet. As lishogi does, a premove may
// go wherever the piece could reach on an empty board, and a pre-drop on
// any square not holding the player's own piece (nor on a rank where the
// piece could never move again, where the game forbids it); whether it is
// legal is decided when the opponent has moved, by the server's list.
// Pawns-Only Chess needs none of this: chessground knows a pawn's moves.

import { DIRECTION_STEPS, type Direction, type Movement } from './pieces/movement';
import { PROMOTES_TO, type VariantInfo } from './variants';

/** A side as shogiground names it. */
export type Side = 'sente' | 'gote';

/** A square as file and rank index (rank 0 = `a`, the first rank seen from Sente). */
interface Square {
  file: number;
  rank: number;
}

const parseKey = (key: string): Square => ({ file: Number(key.slice(0, -1)), rank: key.charCodeAt(key.length - 1) - 97 });
const makeKey = ({ file, rank }: Square): string => `${file}${String.fromCharCode(97 + rank)}`;
const onBoard = (variant: VariantInfo, { file, rank }: Square): boolean =>
  file >= 1 && file <= variant.files && rank >= 0 && rank < variant.ranks;

/**
 * One step in `direction` seen from `side`. North is forward: towards rank
 * `a` for Sente, away from it for Gote. The page's east (right, seen from
 * Sente) is the lower file; movements are symmetric left to right, so only
 * forward needs turning.
 */
function step(side: Side, direction: Direction): Square {
  const [x, y] = DIRECTION_STEPS[direction];
  return side === 'sente' ? { file: -x, rank: y } : { file: x, rank: -y };
}

/** The squares `movement` reaches from `from` on an empty board. */
function reach(variant: VariantInfo, side: Side, movement: Movement, from: Square): Square[] {
  const out: Square[] = [];
  const along = (direction: Direction, most: number) => {
    const { file, rank } = step(side, direction);
    for (let n = 1; n <= most; n++) {
      const to = { file: from.file + file * n, rank: from.rank + rank * n };
      if (!onBoard(variant, to)) break;
      out.push(to);
    }
  };
  for (const direction of movement.steps) along(direction, 1);
  for (const direction of movement.twoSteps) along(direction, 2);
  for (const direction of movement.slides) along(direction, Math.max(variant.files, variant.ranks));
  if (movement.knightJumps) {
    const forward = side === 'sente' ? -2 : 2;
    for (const sideways of [-1, 1]) {
      const to = { file: from.file + sideways, rank: from.rank + forward };
      if (onBoard(variant, to)) out.push(to);
    }
  }
  return out;
}

/** The squares a piece of `role` on `key` may be premoved to. */
export function premoveDests(variant: VariantInfo, role: string, side: Side, key: string): string[] {
  const face = variant.faces[role];
  if (!face) return [];
  const seen = new Set<string>();
  for (const square of reach(variant, side, face.movement, parseKey(key))) seen.add(makeKey(square));
  return [...seen];
}

/** The ranks (counted from the far end, 1 = the last) a piece may not be dropped on in this game. */
function deadRanks(variant: VariantInfo, role: string): number {
  // Spear forbids no drop (docs/rules/spear.md).
  if (variant.id === 'spear') return 0;
  if (role === 'pawn' || role === 'lance') return 1;
  if (role === 'knight') return 2;
  return 0;
}

/** How far from the last rank a square of `side` is: 1 on the last rank. */
const fromFarEnd = (variant: VariantInfo, side: Side, rank: number): number => (side === 'sente' ? rank + 1 : variant.ranks - rank);

/** The squares a piece of `role` may be pre-dropped on, given the squares the player's own pieces hold. */
export function predropDests(variant: VariantInfo, role: string, side: Side, ownSquares: ReadonlySet<string>): string[] {
  const dead = deadRanks(variant, role);
  const out: string[] = [];
  for (let rank = 0; rank < variant.ranks; rank++)
    for (let file = variant.files; file >= 1; file--) {
      const key = makeKey({ file, rank });
      if (!ownSquares.has(key) && fromFarEnd(variant, side, rank) > dead) out.push(key);
    }
  return out;
}

/** How deep each game's promotion zone is, in ranks. */
const ZONE_DEPTH: Record<string, number> = { shogi: 3, minishogi: 1, spear: 2 };

/**
 * Whether a premove of a `role` piece from `from` to `to` promotes: `none`,
 * `optional` (the player is asked as the premove is made) or `forced`.
 * Spear promotes every promotable piece that ends a move in the zone;
 * shogi and minishogi let a move into, out of or inside the zone promote,
 * and force it on a pawn, lance or knight that could not move again.
 */
export function premovePromotion(variant: VariantInfo, role: string, side: Side, from: string, to: string): 'none' | 'optional' | 'forced' {
  const promoted = PROMOTES_TO[role];
  if (!promoted || !variant.faces[promoted]) return 'none';
  const depth = ZONE_DEPTH[variant.id] ?? 0;
  const inZone = (key: string) => fromFarEnd(variant, side, parseKey(key).rank) <= depth;
  if (variant.id === 'spear') return inZone(to) ? 'forced' : 'none';
  if (!inZone(from) && !inZone(to)) return 'none';
  return fromFarEnd(variant, side, parseKey(to).rank) <= deadRanks(variant, role) ? 'forced' : 'optional';
}
