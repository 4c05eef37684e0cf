// How a game ended, in words. The server says it in English (its
// `outcome.message`), naming the shogi sides Sente and Gote: in English the
// page shows that sentence in the players' words (Black and White in
// Spear, Shitate and Uwate in a handicap game); another language builds the
// sentence from the ending's code (`outcome.reason`), and shows the
// server's sentence as it came for an ending it does not know.

import type { GameState } from '../api';
import { hasWords, language, t } from '../i18n';
import { opposite, sideName } from '../sides';
import { inPlayersWords } from '../variants';

/** The sentence that says who won and why. */
export function outcomeText(state: GameState): string {
  const outcome = state.outcome;
  if (!outcome) return '';
  if (language() === 'en') return inPlayersWords(state.variant, outcome.message, state.handicap);
  const name = (color: typeof state.turn) => sideName(state.variant, color, state.handicap);
  if (outcome.winner) {
    const key = `outcome.${outcome.reason}`;
    if (!hasWords(key) || outcome.reason.startsWith('draw')) return outcome.message;
    return t(key, { winner: name(outcome.winner), loser: name(opposite(state.variant, outcome.winner)) });
  }
  const draws: Record<string, string> = {
    stalemate: 'outcome.drawStalemate',
    repetition: 'outcome.drawRepetition',
    impasse: 'outcome.drawImpasse',
    abandoned: 'outcome.abandoned',
  };
  const key = draws[outcome.reason];
  return key ? t(key, { side: name(state.turn) }) : outcome.message;
}
