// What the page needs to know about each game: board size, the roles a hand
// can hold, and how each role is drawn and named. Legality is the server's.

import type { Face } from './pieces';
import { MOVES, type Movement } from './pieces/movement';

export type VariantId = 'spear' | 'minishogi' | 'shogi' | 'pawns';

/**
 * How the shogi pieces are drawn: one kanji (the default, and Spear's seed
 * view with its letter under the kanji), two kanji stacked as on
 * traditional pieces, international symbols of each piece's movement, or
 * Latin letters with the English name.
 */
export type PieceSet = 'kanji' | 'two-kanji' | 'international' | 'letters';

/** Every piece set with its name for a menu, the default first. */
export const PIECE_SETS: readonly { id: PieceSet; label: string }[] = [
  { id: 'kanji', label: 'one kanji' },
  { id: 'two-kanji', label: 'two kanji' },
  { id: 'international', label: 'international (movement symbols)' },
  { id: 'letters', label: 'Latin letters' },
];

/** Whether `text` names a piece set (a stored choice may be stale). */
export const isPieceSet = (text: string | null): text is PieceSet => PIECE_SETS.some((set) => set.id === text);

export interface VariantInfo {
  id: VariantId;
  title: string;
  /** Which widget draws it. */
  widget: 'shogiground' | 'chessground';
  files: number;
  ranks: number;
  /** Roles shown in the hands, in shogiground's role names. */
  handRoles: string[];
  faces: Record<string, Face>;
  /** Draw the Latin letter under the kanji too (Spear: the seed's letters). */
  letterOnKanji: boolean;
  /** The names of the first and second player. */
  players: [string, string];
  /** The start position (SFEN, or FEN for Pawns-Only Chess), as the server writes it. */
  start: string;
}

const face = (
  kanji: string,
  kanji2: string,
  letter: string,
  name: string,
  movement: Movement,
  size: number,
  promoted = false,
): Face => ({ kanji, kanji2, letter, name, movement, size, promoted });

const SHOGI_FACES: Record<string, Face> = {
  king: face('玉', '玉将', 'K', 'king', MOVES.king, 1),
  rook: face('飛', '飛車', 'R', 'rook', MOVES.rook, 0.96),
  bishop: face('角', '角行', 'B', 'bishop', MOVES.bishop, 0.96),
  gold: face('金', '金将', 'G', 'gold', MOVES.gold, 0.92),
  silver: face('銀', '銀将', 'S', 'silver', MOVES.silver, 0.92),
  knight: face('桂', '桂馬', 'N', 'knight', MOVES.knight, 0.88),
  lance: face('香', '香車', 'L', 'lance', MOVES.lance, 0.88),
  pawn: face('歩', '歩兵', 'P', 'pawn', MOVES.pawn, 0.84),
  dragon: face('龍', '龍王', 'R', 'dragon', MOVES.dragon, 0.96, true),
  horse: face('馬', '龍馬', 'B', 'horse', MOVES.horse, 0.96, true),
  promotedsilver: face('全', '成銀', 'S', 'silver', MOVES.gold, 0.92, true),
  promotedknight: face('圭', '成桂', 'N', 'knight', MOVES.gold, 0.88, true),
  promotedlance: face('杏', '成香', 'L', 'lance', MOVES.gold, 0.88, true),
  tokin: face('と', 'と金', 'P', 'tokin', MOVES.gold, 0.84, true),
};

// Spear Shogi: the seed's names and letters; the elephant 象 and spear 槍
// as Koma writes them (crates/records/src/kanji.rs). A promoted spear moves
// as a rook and is drawn as one, a promoted elephant as a horse. Two-kanji
// names have no tradition here: 象兵 (war elephant) and 槍兵 (spearman)
// follow 歩兵 (foot soldier), which the soldier already is.
const SPEAR_FACES: Record<string, Face> = {
  king: face('玉', '玉将', 'K', 'king', MOVES.king, 1),
  gold: face('金', '金将', 'G', 'gold', MOVES.gold, 0.92),
  silver: face('銀', '銀将', 'S', 'silver', MOVES.silver, 0.92),
  bishop: face('象', '象兵', 'B', 'elephant', MOVES.forwardBishop, 0.94),
  lance: face('槍', '槍兵', 'L', 'spear', MOVES.lance, 0.9),
  pawn: face('歩', '歩兵', 'P', 'soldier', MOVES.pawn, 0.84),
  promotedsilver: face('全', '成銀', 'S', 'silver', MOVES.twoStep, 0.92, true),
  horse: face('馬', '龍馬', 'B', 'elephant', MOVES.horse, 0.94, true),
  promotedlance: face('飛', '飛車', 'L', 'spear', MOVES.rook, 0.9, true),
  tokin: face('と', 'と金', 'P', 'soldier', MOVES.gold, 0.84, true),
};

export const VARIANTS: Record<VariantId, VariantInfo> = {
  spear: {
    id: 'spear',
    title: 'Spear Shogi (5×5)',
    widget: 'shogiground',
    files: 5,
    ranks: 5,
    // The captured king goes to the hand at the end of a Spear game.
    handRoles: ['bishop', 'lance', 'gold', 'silver', 'pawn', 'king'],
    faces: SPEAR_FACES,
    letterOnKanji: true,
    players: ['Black', 'White'],
    start: 'lbsgk/4p/5/P4/KGSBL b - 1',
  },
  minishogi: {
    id: 'minishogi',
    title: 'Minishogi (5×5)',
    widget: 'shogiground',
    files: 5,
    ranks: 5,
    handRoles: ['rook', 'bishop', 'gold', 'silver', 'pawn'],
    faces: SHOGI_FACES,
    letterOnKanji: false,
    players: ['Sente', 'Gote'],
    start: 'rbsgk/4p/5/P4/KGSBR b - 1',
  },
  shogi: {
    id: 'shogi',
    title: 'Shogi (9×9)',
    widget: 'shogiground',
    files: 9,
    ranks: 9,
    handRoles: ['rook', 'bishop', 'gold', 'silver', 'knight', 'lance', 'pawn'],
    faces: SHOGI_FACES,
    letterOnKanji: false,
    players: ['Sente', 'Gote'],
    start: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
  },
  pawns: {
    id: 'pawns',
    title: 'Pawns-Only Chess (8×8)',
    widget: 'chessground',
    files: 8,
    ranks: 8,
    handRoles: [],
    faces: {},
    letterOnKanji: false,
    players: ['White', 'Black'],
    start: '8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1',
  },
};

export const VARIANT_IDS: VariantId[] = ['spear', 'minishogi', 'shogi', 'pawns'];

export const isVariantId = (text: string): text is VariantId => (VARIANT_IDS as string[]).includes(text);

/** Promotion maps in shogiground's role names. */
export const PROMOTES_TO: Record<string, string> = {
  pawn: 'tokin',
  lance: 'promotedlance',
  knight: 'promotedknight',
  silver: 'promotedsilver',
  bishop: 'horse',
  rook: 'dragon',
};
export const UNPROMOTES_TO: Record<string, string> = Object.fromEntries(
  Object.entries(PROMOTES_TO).map(([base, promoted]) => [promoted, base]),
);

/** The shogiground role of a USI drop letter (`P` in `P*5e`). */
export const DROP_ROLES: Record<string, string> = {
  P: 'pawn',
  L: 'lance',
  N: 'knight',
  S: 'silver',
  G: 'gold',
  B: 'bishop',
  R: 'rook',
  K: 'king',
};
export const DROP_LETTERS: Record<string, string> = Object.fromEntries(
  Object.entries(DROP_ROLES).map(([letter, role]) => [role, letter]),
);

/**
 * The server's sentences name the shogi sides sente and gote; Spear's
 * players are the seed's Black (sente, who moves first) and White (gote),
 * and in a handicap game of shogi they are Shitate (the receiver, sente)
 * and Uwate (the giver, gote).
 */
export function inPlayersWords(variant: VariantId, text: string, handicap?: object): string {
  if (handicap && variant === 'shogi')
    return text
      .replace(/\bSente\b/g, 'Shitate')
      .replace(/\bGote\b/g, 'Uwate')
      .replace(/\bsente\b/g, 'shitate')
      .replace(/\bgote\b/g, 'uwate');
  if (variant !== 'spear') return text;
  return text
    .replace(/\bSente\b/g, 'Black')
    .replace(/\bGote\b/g, 'White')
    .replace(/\bsente\b/g, 'black')
    .replace(/\bgote\b/g, 'white');
}
