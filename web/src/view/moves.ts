// The list of moves in notation; a click shows the position after that
// move. Each move also shows what is known of it: the review's label (?!,
// ?, ??), and an imported record's time and comments, which the notes
// under the list spell out for the move shown.

import { h, type VNode } from 'snabbdom';
import type { GameState, MoveLabel } from '../api';
import { t } from '../i18n';
import type { NotationChoice } from '../notation';
import { moveText } from './move-text';
import { outcomeText } from './outcome';

/** A review's label in words: Inaccuracy, Mistake, Blunder. */
export const labelWords = (label: MoveLabel): string => t(`label.${label}`);

export const LABEL_SYMBOLS: Record<MoveLabel, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** `0:12`, `1:05:00`: a move's time as records write it. */
export function moveTime(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 1000);
  const [hours, minutes] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds % 60)}` : `${minutes}:${two(seconds % 60)}`;
}

/** What the review says of move `ply` (1 for the first), if it found fault with it. */
export function verdict(state: GameState, ply: number): string | undefined {
  const judged = state.review?.moves[ply - 1];
  if (!judged?.label) return undefined;
  const better = judged.better ? t('moves.better', { move: moveText(judged.better) }) : '';
  return t('moves.verdict', { label: labelWords(judged.label), percent: Math.round(judged.loss * 100) }) + better;
}

/** Keeps the shown move in view inside the list, without scrolling the page itself. */
function scrollToCurrent(vnode: VNode): void {
  const list = vnode.elm as HTMLElement;
  const current = list.querySelector<HTMLElement>('button.current');
  if (!current) return;
  const top = current.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight)
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
}

/** The move list of `state`, move `shown` marked; `onPick` shows a move. */
export function moveList(state: GameState, shown: number, onPick: (ply: number) => void, choice?: NotationChoice): VNode {
  const item = (ply: number, text: string, title: string, marks: VNode[] = []): VNode =>
    h('li', [
      h(
        'button',
        {
          attrs: { type: 'button', title, ...(ply === shown ? { 'aria-current': 'step' } : {}) },
          class: { current: ply === shown },
          dataset: { ply: String(ply) },
          on: { click: () => onPick(ply) },
        },
        text,
      ),
      ...marks,
    ]);
  // Moves with marks and times get a row each, so that none is cut short.
  const annotated = !!state.review || state.moves.some((m) => m.milliseconds !== undefined || !!m.comments?.length);
  const items = [item(0, t('moves.start'), t('moves.startTitle'))];
  state.moves.forEach((move, index) => {
    const number = state.variant === 'pawns' ? '' : `${index + 1}. `;
    const marks: VNode[] = [];
    const label = state.review?.moves[index]?.label;
    if (label) marks.push(h(`span.move-label.${label}`, { attrs: { title: verdict(state, index + 1) ?? '' } }, LABEL_SYMBOLS[label]));
    if (move.comments?.length) marks.push(h('span.move-comment-mark', { attrs: { title: move.comments.join('\n') } }, '＊'));
    if (move.milliseconds !== undefined)
      marks.push(h('span.move-time', { attrs: { title: t('moves.timeTitle') } }, moveTime(move.milliseconds)));
    items.push(item(index + 1, number + moveText(move, choice), move.usi, marks));
  });
  if (state.outcome) items.push(h('li.outcome', outcomeText(state)));
  return h('ol#move-list.move-list', { class: { annotated }, hook: { insert: scrollToCurrent, postpatch: (_, vnode) => scrollToCurrent(vnode) } }, items);
}

/** The notes of move `shown` (0: the start): the review's verdict and the record's comments. */
export function moveNotes(state: GameState, shown: number): VNode {
  const lines: VNode[] = [];
  const said = verdict(state, shown);
  if (said) lines.push(h(`p.move-verdict.${state.review?.moves[shown - 1]?.label ?? ''}`, said));
  const comments = shown === 0 ? state.comments : state.moves[shown - 1]?.comments;
  for (const comment of comments ?? []) lines.push(h('p.move-comment', comment));
  return h('div#move-notes.move-notes', { attrs: { 'aria-live': 'polite' }, props: { hidden: lines.length === 0 } }, lines);
}
