// The list of moves in notation; a click shows the position after that move.

import type { GameState } from './api';
import { inPlayersWords } from './variants';

export function renderMoveList(list: HTMLOListElement, state: GameState, shownPly: number, onPick: (ply: number) => void): void {
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
    list.appendChild(item(index + 1, number + move.notation, move.usi));
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
