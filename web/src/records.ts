// The record formats the server can write for each game (docs/API.md).
// Loading and saving themselves are the server's (xhr.ts).

import type { VariantId } from './variants';

/** The formats the server can write for each game, with their labels. */
export const SAVE_FORMATS: Record<VariantId, [string, string][]> = {
  spear: [
    ['kifu', 'KIF (UTF-8, .kifu)'],
    ['kif', 'KIF (Shift_JIS, .kif)'],
    ['usi', 'SFEN / USI'],
  ],
  minishogi: [
    ['kifu', 'KIF (UTF-8, .kifu)'],
    ['kif', 'KIF (Shift_JIS, .kif)'],
    ['usi', 'SFEN / USI'],
  ],
  shogi: [
    ['kifu', 'KIF (UTF-8, .kifu)'],
    ['kif', 'KIF (Shift_JIS, .kif)'],
    ['csa', 'CSA'],
    ['usi', 'SFEN / USI'],
  ],
  pawns: [
    ['pgn', 'PGN'],
    ['usi', 'FEN / UCI'],
  ],
};
