// What the page needs to know about each game: board size, the roles a hand
// can hold, and how each role is drawn and named. Legality is the server's.

import type { Face } from './pieces';

export type VariantId = 'spear' | 'minishogi' | 'shogi' | 'pawns';
export type PieceSet = 'kanji' | 'letters';

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
}

const face = (kanji: string, letter: string, name: string, size: number, promoted = false): Face => ({
  kanji,
  letter,
  name,
  size,
  promoted,
});

const SHOGI_FACES: Record<string, Face> = {
  king: face('玉', 'K', 'king', 1),
  rook: face('飛', 'R', 'rook', 0.96),
  bishop: face('角', 'B', 'bishop', 0.96),
  gold: face('金', 'G', 'gold', 0.92),
  silver: face('銀', 'S', 'silver', 0.92),
  knight: face('桂', 'N', 'knight', 0.88),
  lance: face('香', 'L', 'lance', 0.88),
  pawn: face('歩', 'P', 'pawn', 0.84),
  dragon: face('龍', 'R', 'dragon', 0.96, true),
  horse: face('馬', 'B', 'horse', 0.96, true),
  promotedsilver: face('全', 'S', 'silver', 0.92, true),
  promotedknight: face('圭', 'N', 'knight', 0.88, true),
  promotedlance: face('杏', 'L', 'lance', 0.88, true),
  tokin: face('と', 'P', 'tokin', 0.84, true),
};

// Spear Shogi: the seed's names and letters; the elephant 象 and spear 槍
// as Koma writes them (crates/records/src/kanji.rs). A promoted spear moves
// as a rook and is drawn as one.
const SPEAR_FACES: Record<string, Face> = {
  king: face('玉', 'K', 'king', 1),
  gold: face('金', 'G', 'gold', 0.92),
  silver: face('銀', 'S', 'silver', 0.92),
  bishop: face('象', 'B', 'elephant', 0.94),
  lance: face('槍', 'L', 'spear', 0.9),
  pawn: face('歩', 'P', 'soldier', 0.84),
  promotedsilver: face('全', 'S', 'silver', 0.92, true),
  horse: face('馬', 'B', 'elephant', 0.94, true),
  promotedlance: face('飛', 'L', 'spear', 0.9, true),
  tokin: face('と', 'P', 'soldier', 0.84, true),
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
