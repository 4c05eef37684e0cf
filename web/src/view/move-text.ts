// The text of a move, in one place: the move list, the analysis lines, the
// mate line, the review's notes and the graph all write a move through
// `moveText`, which reads the notation chosen (notation.ts).
//
// The server sends each shogi move in every notation (`notations`, see
// docs/API.md); the page picks the one chosen for the whole page
// (notation.ts), so every view follows it without being handed it.
// Spear's seed notation is chosen where the move list is drawn (analysis
// lines keep the shogi writing).

import type { MoveNotations, PlayedMove } from '../api';
import { currentShogiNotation, type NotationChoice, type ShogiNotation } from '../notation';

/** Which of the server's notations each choice reads (`kif` reads `notation` itself). */
const FIELD: Record<Exclude<ShogiNotation, 'kif'>, keyof MoveNotations> = {
  japanese: 'japanese',
  western: 'western',
  kitaoKawasaki: 'kitaoKawasaki',
  usi: 'usi',
};

/**
 * The text of `move` as the player chose to read it: Spear's seed
 * notation when chosen for the list, else the shogi notation chosen, when
 * the server sent it for this move (Spear has no Western or Kitao–Kawasaki
 * writing, Pawns-Only Chess none of them), else the server's `notation`.
 */
export function moveText(move: PlayedMove, choice?: NotationChoice): string {
  if (choice?.spear === 'seed' && move.seed) return move.seed;
  const notation = currentShogiNotation();
  if (notation === 'kif') return move.notation;
  return move.notations?.[FIELD[notation]] ?? move.notation;
}
