// Impasse declaration (入玉宣言) in shogi: the Declare button. The server
// judges the declaration under the game's rule (27 or 24 points) and says
// in every state whether the side to move may declare now
// (`impasse.declaration`) or why not (`impasse.shortfall`).

import type { GameState } from './api';
import { sideName } from './sides';
import { t } from './i18n';

/** A line under the status when the side to move may declare: what the declaration would give. */
export function impasseNote(state: GameState): string | undefined {
  const impasse = state.impasse;
  if (!impasse?.declaration || state.outcome) return undefined;
  const side = sideName(state.variant, state.turn, state.handicap);
  return t(impasse.declaration === 'win' ? 'status.impasseWin' : 'status.impasseDraw', { side, rule: impasse.rule });
}
