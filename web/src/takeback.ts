// Taking a move back in a game between two machines: one player asks (the
// Undo button reads "Ask to take back"), the other accepts or declines. The
// server keeps the request (`takeback` in the state); this shows it.

import type { GameState } from './api';
import type { Seating } from './seats';
import { opposite, sideName } from './sides';

export interface TakebackActions {
  accept(): void;
  decline(): void;
}

/** Draws the request, if any, into `element`, with Accept and Decline for the player asked. */
export function renderTakeback(element: HTMLElement, state: GameState, seating: Seating, actions: TakebackActions): void {
  const asker = state.mode === 'shared' && !state.outcome ? state.takeback : null;
  element.hidden = !asker;
  element.dataset.asker = asker ?? '';
  if (!asker) {
    element.textContent = '';
    return;
  }
  const answering = seating.sides.some((side) => side !== asker);
  const key = `${state.version}:${answering ? 'answer' : seating.holds(asker) ? 'wait' : 'watch'}`;
  if (element.dataset.key === key) return;
  element.dataset.key = key;
  element.textContent = '';
  const text = document.createElement('span');
  text.className = 'takeback-text';
  const other = sideName(state.variant, opposite(state.variant, asker), state.handicap);
  if (answering) {
    text.textContent = `${sideName(state.variant, asker, state.handicap)} asks to take back a move.`;
    element.appendChild(text);
    const button = (id: string, label: string, title: string, action: () => void): void => {
      const b = document.createElement('button');
      b.type = 'button';
      b.id = id;
      b.textContent = label;
      b.title = title;
      b.addEventListener('click', action);
      element.appendChild(b);
    };
    button('takeback-accept', 'Accept', 'Take the move back', () => actions.accept());
    button('takeback-decline', 'Decline', 'Keep the move: the game goes on', () => actions.decline());
  } else if (seating.holds(asker)) {
    text.textContent = `You asked to take back your move: waiting for ${other} to answer.`;
    element.appendChild(text);
  } else {
    text.textContent = `${sideName(state.variant, asker, state.handicap)} asks to take back a move; ${other} has not answered yet.`;
    element.appendChild(text);
  }
}

/** What became of a request between two states of a game, as a sentence, if worth saying. */
export function takebackNews(previous: GameState, next: GameState, seating: Seating): string | undefined {
  const asker = previous.takeback;
  if (previous.mode !== 'shared' || !asker || next.takeback || next.outcome) return undefined;
  const mine = seating.holds(asker) && !seating.sides.some((side) => side !== asker);
  const other = sideName(next.variant, opposite(next.variant, asker), next.handicap);
  if (next.ply < previous.ply) return mine ? `${other} accepted: your move was taken back.` : 'The move was taken back.';
  if (next.ply === previous.ply) return mine ? `${other} declined to take back your move.` : 'The takeback was declined.';
  return undefined;
}
