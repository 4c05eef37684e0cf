// The text of a move, in one place: the move list, the analysis lines, the
// mate line, the review's notes and the graph all write a move through
// `moveText`, so that a choice of notation is made here.
//
// The server sends each shogi move in every notation (`notations`, see
// docs/API.md); the page picks one. The choice for shogi and minishogi is
// kept here for the whole page, as the language is in i18n/: every view
// follows it without being handed it. Spear's seed notation is chosen
// where the move list is drawn (analysis lines keep the shogi writing).

import type { MoveNotations, PlayedMove } from '../api';

/** How Spear's moves are written: the seed's `L FF TT`, or Japanese like the other shogi games. */
export type SpearNotation = 'seed' | 'japanese';

/**
 * How shogi and minishogi moves are written: Japanese (KI2: ▲７六歩),
 * Japanese with the origin square (KIF: ☗７六歩(77), the server's
 * `notation`), Western (Hodges: P-7f), Kitao–Kawasaki (歩-76) or USI (7g7f).
 */
export type ShogiNotation = 'japanese' | 'kif' | 'western' | 'kitaoKawasaki' | 'usi';

/** The shogi notations offered, in the order the menu lists them. */
export const SHOGI_NOTATIONS: readonly ShogiNotation[] = ['kif', 'japanese', 'western', 'kitaoKawasaki', 'usi'];

export const isShogiNotation = (text: string | null | undefined): text is ShogiNotation =>
  SHOGI_NOTATIONS.some((notation) => notation === text);

/** The notation choices that apply to a move's text. */
export interface NotationChoice {
  spear: SpearNotation;
}

/** Which of the server's notations each choice reads (`kif` reads `notation` itself). */
const FIELD: Record<Exclude<ShogiNotation, 'kif'>, keyof MoveNotations> = {
  japanese: 'japanese',
  western: 'western',
  kitaoKawasaki: 'kitaoKawasaki',
  usi: 'usi',
};

let shogiNotation: ShogiNotation = 'kif';

/** Chooses how shogi moves are written on the whole page. */
export function setShogiNotation(notation: ShogiNotation): void {
  shogiNotation = notation;
}

/** How shogi moves are written now. */
export function currentShogiNotation(): ShogiNotation {
  return shogiNotation;
}

/**
 * The text of `move` as the player chose to read it: Spear's seed
 * notation when chosen for the list, else the shogi notation chosen, when
 * the server sent it for this move (Spear has no Western or Kitao–Kawasaki
 * writing, Pawns-Only Chess none of them), else the server's `notation`.
 */
export function moveText(move: PlayedMove, choice?: NotationChoice): string {
  if (choice?.spear === 'seed' && move.seed) return move.seed;
  if (shogiNotation === 'kif') return move.notation;
  return move.notations?.[FIELD[shogiNotation]] ?? move.notation;
}
