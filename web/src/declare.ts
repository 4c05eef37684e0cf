// Impasse declaration (入玉宣言) in shogi: the Declare button. The server
// judges the declaration under the game's rule (27 or 24 points) and says
// in every state whether the side to move may declare now
// (`impasse.declaration`) or why not (`impasse.shortfall`).

import type { GameState } from './api';
import type { Seating } from './seats';
import { sideName } from './sides';

/** Shows, enables and explains the Declare button for this page's seats. */
export function renderDeclare(button: HTMLButtonElement, state: GameState, seating: Seating): void {
  const impasse = state.impasse;
  const computerToMove = state.opponent.kind === 'computer' && state.opponent.color === state.turn;
  button.hidden = !impasse || seating.watching;
  if (!impasse) return;
  const ours = seating.holds(state.turn) && !computerToMove;
  const rule = `the ${impasse.rule}-point rule`;
  const side = sideName(state.variant, state.turn, state.handicap);
  button.disabled = !!state.outcome || !ours || !impasse.declaration;
  button.dataset.declaration = impasse.declaration ?? '';
  if (state.outcome) button.title = `Impasse declaration (${rule}): the game is over`;
  else if (!ours) button.title = `Impasse declaration (${rule}): only the side to move declares`;
  else if (impasse.declaration === 'win') button.title = `Declare impasse (入玉宣言): ${side} wins under ${rule}`;
  else if (impasse.declaration === 'draw') button.title = `Declare impasse (入玉宣言): a draw (持将棋) under ${rule}`;
  else button.title = `Impasse declaration (${rule}) not valid for ${side}: ${impasse.shortfall ?? 'not now'}`;
}

/** A line under the status when the side to move may declare: what the declaration would give. */
export function impasseNote(state: GameState): string | undefined {
  const impasse = state.impasse;
  if (!impasse?.declaration || state.outcome) return undefined;
  const side = sideName(state.variant, state.turn, state.handicap);
  const result = impasse.declaration === 'win' ? `${side} would win` : 'the game would be drawn (持将棋)';
  return `${side} may declare impasse (入玉宣言): under the ${impasse.rule}-point rule ${result}.`;
}
