// An evaluation as people read it, for the bar, the analysis lines and the
// review's graph.

import type { Score } from '../api';
import { t } from '../i18n';
import { colorsOf, sideName } from '../sides';
import type { VariantId } from '../variants';

/** `+35` (shogi) or `+0.35` (pawns), `Sente ☗ mates in 5`. */
export function scoreText(variant: VariantId, score: Score): string {
  if ('mate' in score) {
    const [first, second] = colorsOf(variant);
    const winner = score.mate >= 0 ? first : second;
    return t('score.mates', { side: sideName(variant, winner), plies: Math.abs(score.mate) });
  }
  const sign = score.cp > 0 ? '+' : score.cp < 0 ? '−' : '±';
  const size = Math.abs(score.cp);
  return variant === 'pawns' ? `${sign}${(size / 100).toFixed(2)}` : `${sign}${size}`;
}

/**
 * The evaluation bar's short label, from the first player's view as the
 * lines write it: `+35` (shogi), `−0.35` (pawns), `M5` when the first
 * player mates in 5 plies, `−M5` when the second does.
 */
export function barText(variant: VariantId, score: Score): string {
  if ('mate' in score) return `${score.mate < 0 ? '−' : ''}M${Math.abs(score.mate)}`;
  return scoreText(variant, score);
}

/** Whether the first player is ahead (or level) by `score`: the bar's label stands at that side's end. */
export function firstAhead(score: Score): boolean {
  if ('mate' in score) return score.mate >= 0;
  return score.cp >= 0;
}
