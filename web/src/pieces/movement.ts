// How each kind of shogi piece moves, as the international piece set draws
// it: the directions of its one-square steps, its slides and its jumps. The
// rules themselves are the server's (crates/rules/src/attacks.rs); this is
// only the picture of them, seen from the piece's owner (north is forward).

/** A direction from the piece, north being its owner's forward. */
export type Direction = 'n' | 'ne' | 'e' | 'se' | 's' | 'sw' | 'w' | 'nw';

/** The eight directions as (x, y) steps on the page, y growing downwards. */
export const DIRECTION_STEPS: Record<Direction, readonly [number, number]> = {
  n: [0, -1],
  ne: [1, -1],
  e: [1, 0],
  se: [1, 1],
  s: [0, 1],
  sw: [-1, 1],
  w: [-1, 0],
  nw: [-1, -1],
};

/** What a piece may do, direction by direction. */
export interface Movement {
  /** One square. */
  steps: readonly Direction[];
  /** One or two squares in a line, not jumping (Spear's promoted silver). */
  twoSteps: readonly Direction[];
  /** Any distance, not jumping. */
  slides: readonly Direction[];
  /** The knight's two jumps: two forward and one to the side. */
  knightJumps: boolean;
}

const ALL: readonly Direction[] = ['n', 'ne', 'e', 'se', 's', 'sw', 'w', 'nw'];
const ORTHOGONAL: readonly Direction[] = ['n', 'e', 's', 'w'];
const DIAGONAL: readonly Direction[] = ['ne', 'se', 'sw', 'nw'];

const movement = (parts: Partial<Movement>): Movement => ({
  steps: [],
  twoSteps: [],
  slides: [],
  knightJumps: false,
  ...parts,
});

/** The movements of the shogi family, by name. */
export const MOVES = {
  king: movement({ steps: ALL }),
  gold: movement({ steps: ['nw', 'n', 'ne', 'w', 'e', 's'] }),
  silver: movement({ steps: ['nw', 'n', 'ne', 'sw', 'se'] }),
  knight: movement({ knightJumps: true }),
  lance: movement({ slides: ['n'] }),
  pawn: movement({ steps: ['n'] }),
  rook: movement({ slides: ORTHOGONAL }),
  bishop: movement({ slides: DIAGONAL }),
  dragon: movement({ slides: ORTHOGONAL, steps: DIAGONAL }),
  horse: movement({ slides: DIAGONAL, steps: ORTHOGONAL }),
  /** Spear's elephant: the two forward diagonals only. */
  forwardBishop: movement({ slides: ['nw', 'ne'] }),
  /** Spear's promoted silver: one or two squares in any direction. */
  twoStep: movement({ twoSteps: ALL }),
} as const satisfies Record<string, Movement>;
