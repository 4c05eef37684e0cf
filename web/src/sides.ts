// The two sides of each game, as the API writes them and as players say them.

import type { Color, Handicap } from './api';
import { t } from './i18n';
import type { VariantId } from './variants';

/** The first and the second mover's names in the API. */
export function colorsOf(variant: VariantId): [Color, Color] {
  return variant === 'pawns' ? ['white', 'black'] : ['sente', 'gote'];
}

/** Who moves first and second in a game that may start from a handicap: there the giver, Gote, opens. */
export function moversOf(variant: VariantId, handicap: boolean): [Color, Color] {
  const [first, second] = colorsOf(variant);
  return handicap && variant === 'shogi' ? [second, first] : [first, second];
}

export function opposite(variant: VariantId, color: Color): Color {
  const [first, second] = colorsOf(variant);
  return color === first ? second : first;
}

/**
 * A side named in either family of words, as the game names it: for the
 * shogi games black = sente and white = gote; for pawns sente = white and
 * gote = black (the server reads colours the same way, docs/API.md).
 */
export function sideOf(variant: VariantId, name: string): Color | undefined {
  const [first, second] = colorsOf(variant);
  const firstWords = variant === 'pawns' ? ['white', 'sente'] : ['sente', 'black'];
  const secondWords = variant === 'pawns' ? ['black', 'gote'] : ['gote', 'white'];
  if (firstWords.includes(name)) return first;
  if (secondWords.includes(name)) return second;
  return undefined;
}

/**
 * A side's name as its game's players say it, in the page's language; in a handicap game of shogi,
 * the receiver (Sente) is Shitate and the giver (Gote) Uwate, as lishogi
 * names them.
 */
export function sideName(variant: VariantId, color: Color, handicap?: Handicap): string {
  const first = color === 'sente' || color === 'white';
  if (handicap && variant === 'shogi') return t(first ? 'side.shitate' : 'side.uwate');
  const family = variant === 'spear' ? 'spear' : variant === 'pawns' ? 'pawns' : 'shogi';
  return t(`side.${family}${first ? 'First' : 'Second'}`);
}
