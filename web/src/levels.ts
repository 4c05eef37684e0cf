// What a computer level is worth: each level's Elo on Koma's scale, per
// game, as the ladder of matches in docs/STRENGTH.md ("What a level is
// worth") measured it, each level against the one below over 100 games.
// Level 1 is 0 on each game's scale; a difference of 200 means the
// stronger level scores about 76 %, 400 about 91 %. A level the ladder has
// not reached has no number, and the page shows none; nor does it for
// minishogi, whose levels the ladder found not monotone.
// web/test/levels.test.ts checks this table against STRENGTH.md's.

import type { VariantId } from './variants';

/** Each game's measured levels' Elo, level 1 first. */
export const LEVEL_ELO: Readonly<Partial<Record<VariantId, readonly number[]>>> = {
  shogi: [0, 90, 380, 480, 780, 850, 1060, 1080, 1260],
  spear: [0, 90, 210, 250, 430, 490, 630, 670, 790],
};

/** Level `level`'s Elo on Koma's scale for `variant`, if measured. */
export function levelElo(variant: VariantId, level: number): number | undefined {
  if (!Number.isInteger(level)) return undefined;
  return LEVEL_ELO[variant]?.[level - 1];
}
