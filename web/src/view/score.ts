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
