// The list of moves in notation; a click shows the position after that move.
// Spear's moves are written as its seed writes them (`K 11 12`) unless the
// player chose Japanese notation.

import type { GameState } from './api';
import { inPlayersWords } from './variants';

/** How Spear's moves are written: the seed's `L FF TT`, or Japanese like the other shogi games. */
export type SpearNotation = 'seed' | 'japanese';

export function renderMoveList(
  list: HTMLOListElement,
  state: GameState,
  shownPly: number,
  onPick: (ply: number) => void,
  spearNotation: SpearNotation = 'seed',
): void {
  list.textContent = '';
  const item = (ply: number, text: string, title: string): HTMLLIElement => {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = text;
    button.title = title;
    button.dataset.ply = String(ply);
    button.addEventListener('click', () => onPick(ply));
    if (ply === shownPly) {
      button.classList.add('current');
      button.setAttribute('aria-current', 'step');
    }
    li.appendChild(button);
    return li;
  };
  list.appendChild(item(0, 'Start', 'The start position'));
  state.moves.forEach((move, index) => {
    const number = state.variant === 'pawns' ? '' : `${index + 1}. `;
    const text = spearNotation === 'seed' && move.seed ? move.seed : move.notation;
    list.appendChild(item(index + 1, number + text, move.usi));
  });
  if (state.outcome) {
    const li = document.createElement('li');
    li.className = 'outcome';
    li.textContent = inPlayersWords(state.variant, state.outcome.message, state.handicap);
    list.appendChild(li);
  }
  const current = list.querySelector<HTMLElement>('button.current');
  if (current) {
    // Keep the shown move in view without scrolling the page itself.
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight)
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}
