// How the page writes moves: the choices a player makes (Spear's seed
// notation or Japanese; for shogi and minishogi, one of the five notations
// the server sends each move in, docs/API.md). The shogi choice is kept
// here for the whole page, as the language is in i18n/: the state (ctrl.ts)
// sets it, and every view that writes a move (view/move-text.ts) reads it.

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

let shogiNotation: ShogiNotation = 'kif';

/** Chooses how shogi moves are written on the whole page. */
export function setShogiNotation(notation: ShogiNotation): void {
  shogiNotation = notation;
}

/** How shogi moves are written now. */
export function currentShogiNotation(): ShogiNotation {
  return shogiNotation;
}
