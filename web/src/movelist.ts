// The list of moves in notation; a click shows the position after that move.
// Spear's moves are written as its seed writes them (`K 11 12`) unless the
// player chose Japanese notation. Each move also shows what is known of it:
// the review's label (?!, ?, ??), and an imported record's time and comments,
// which the notes under the list spell out for the move shown.

import type { GameState } from './api';
import { LABEL_SYMBOLS, LABEL_WORDS } from './review-graph';
import { inPlayersWords } from './variants';

/** `0:12`, `1:05:00`: a move's time as records write it. */
export function moveTime(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 1000);
  const [hours, minutes] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds % 60)}` : `${minutes}:${two(seconds % 60)}`;
}

/** What the review says of move `ply` (1 for the first), if it found fault with it. */
function verdict(state: GameState, ply: number): string | undefined {
  const judged = state.review?.moves[ply - 1];
  if (!judged?.label) return undefined;
  const better = judged.better ? ` ${judged.better.notation} was better.` : '';
  return `${LABEL_WORDS[judged.label]} (${Math.round(judged.loss * 100)} % of the expected score lost).${better}`;
}

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
  // Moves with marks and times get a row each, so that none is cut short.
  const annotated = !!state.review || state.moves.some((m) => m.milliseconds !== undefined || !!m.comments?.length);
  list.classList.toggle('annotated', annotated);
  list.appendChild(item(0, 'Start', 'The start position'));
  state.moves.forEach((move, index) => {
    const number = state.variant === 'pawns' ? '' : `${index + 1}. `;
    const text = spearNotation === 'seed' && move.seed ? move.seed : move.notation;
    const li = item(index + 1, number + text, move.usi);
    const label = state.review?.moves[index]?.label;
    if (label) {
      const mark = document.createElement('span');
      mark.className = `move-label ${label}`;
      mark.textContent = LABEL_SYMBOLS[label];
      mark.title = verdict(state, index + 1) ?? '';
      li.appendChild(mark);
    }
    if (move.comments?.length) {
      const mark = document.createElement('span');
      mark.className = 'move-comment-mark';
      mark.textContent = '＊';
      mark.title = move.comments.join('\n');
      li.appendChild(mark);
    }
    if (move.milliseconds !== undefined) {
      const time = document.createElement('span');
      time.className = 'move-time';
      time.textContent = moveTime(move.milliseconds);
      time.title = 'Time spent on the move, as the record says';
      li.appendChild(time);
    }
    list.appendChild(li);
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

/** The notes of move `shown` (0: the start): the review's verdict and the record's comments. */
export function renderMoveNotes(box: HTMLElement, state: GameState, shown: number): void {
  box.textContent = '';
  const said = verdict(state, shown);
  if (said) {
    const line = document.createElement('p');
    line.className = `move-verdict ${state.review?.moves[shown - 1]?.label ?? ''}`;
    line.textContent = said;
    box.appendChild(line);
  }
  const comments = shown === 0 ? state.comments : state.moves[shown - 1]?.comments;
  for (const comment of comments ?? []) {
    const line = document.createElement('p');
    line.className = 'move-comment';
    line.textContent = comment;
    box.appendChild(line);
  }
  box.hidden = box.childElementCount === 0;
}
