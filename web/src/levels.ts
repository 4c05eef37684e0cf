// What a computer level is worth: each level's Elo on Koma's scale, per
// game, as the ladder of matches in docs/LEVELS.md measured it, each level
// against the one below over 100 games. Level 1 is 0 on each game's scale;
// a difference of 200 means the stronger level scores about 76 %, 400
// about 91 %. A level the ladder has not reached has no number, and the
// page shows none. web/test/levels.test.ts checks this table against
// LEVELS.md's.

import type { VariantId } from './variants';

/** Each game's measured levels' Elo, level 1 first. */
export const LEVEL_ELO: Readonly<Partial<Record<VariantId, readonly number[]>>> = {
  shogi: [
    0, 100, 230, 350, 480, 610, 760, 950, 1210, 1380, 1550, 1760, 1960, 2110, 2300, 2430, 2550, 2710,
    2840,
  ],
  minishogi: [
    0, 350, 610, 790, 900, 950, 1090, 1190, 1320, 1450, 1510, 1630, 1680, 1780, 1930, 1960, 2050, 2150,
    2210,
  ],
  spear: [
    0, 200, 380, 540, 670, 840, 1050, 1170, 1270, 1390, 1440, 1540, 1640, 1770, 1870, 1930, 2000, 2090,
    2200,
  ],
};

/** Level `level`'s Elo on Koma's scale for `variant`, if measured. */
export function levelElo(variant: VariantId, level: number): number | undefined {
  if (!Number.isInteger(level)) return undefined;
  return LEVEL_ELO[variant]?.[level - 1];
}
