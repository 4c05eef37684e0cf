// The evaluation graph of a reviewed game: the first player's expected
// score after every move, as a plot with axes, each side's zone, the
// inaccuracies, mistakes and blunders marked, and the move shown as a
// cursor. Clicking a point (or anywhere over the plot) shows that move.

import type { GameReview, GameState, MoveLabel, PositionReview } from './api';
import { scoreText } from './analysis';
import { colorsOf, sideName } from './sides';

const SVG = 'http://www.w3.org/2000/svg';

/** The drawing's size in its own units (it scales to the panel's width). */
const WIDTH = 320;
const HEIGHT = 168;
/** The plot inside the axes' labels. */
const PLOT = { left: 36, right: 312, top: 10, bottom: 138 };

export const LABEL_WORDS: Record<MoveLabel, string> = {
  inaccuracy: 'Inaccuracy',
  mistake: 'Mistake',
  blunder: 'Blunder',
};

export const LABEL_SYMBOLS: Record<MoveLabel, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

function element<K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string | number>,
  parent: Element,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  parent.appendChild(node);
  return node;
}

/** The x of move number `ply` of a game of `plies` moves. */
function xOf(ply: number, plies: number): number {
  return PLOT.left + ((PLOT.right - PLOT.left) * ply) / Math.max(1, plies);
}

/** The y of the first player's expected score `share`. */
function yOf(share: number): number {
  return PLOT.bottom - (PLOT.bottom - PLOT.top) * share;
}

/** A step between labelled moves on the x axis that leaves room for the numbers. */
function tickStep(plies: number): number {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500]) if (plies / step <= 8) return step;
  return 1000;
}

/** What a point says when the pointer rests on it. */
function pointTitle(state: GameState, review: GameReview, position: PositionReview): string {
  const score = position.evaluation;
  const value = 'mate' in score && score.mate === 0 ? 'the game is over' : scoreText(state.variant, score);
  const [first] = colorsOf(state.variant);
  const share = `${sideName(state.variant, first)}'s expected score ${Math.round(score.expected * 100)} %`;
  if (position.ply === 0) return `Start: ${value} (${share})`;
  const move = state.moves[position.ply - 1];
  let text = `Move ${position.ply}, ${move?.notation ?? ''}: ${value} (${share})`;
  const judged = review.moves[position.ply - 1];
  if (judged?.label) text += `. ${LABEL_WORDS[judged.label]}`;
  if (judged?.label && judged.better) text += `: ${judged.better.notation} was better`;
  return text;
}

/**
 * Draws `review` of `state` into `svg`, the move `shown` marked; `onPick`
 * is called with the move clicked.
 */
export function drawReviewGraph(
  svg: SVGSVGElement,
  state: GameState,
  review: GameReview,
  shown: number,
  onPick: (ply: number) => void,
): void {
  svg.textContent = '';
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  const plies = review.positions.length - 1;
  const [first, second] = colorsOf(state.variant);

  // Each side's zone: the first player's above the middle.
  element('rect', { class: `zone ${first}`, x: PLOT.left, y: PLOT.top, width: PLOT.right - PLOT.left, height: (PLOT.bottom - PLOT.top) / 2 }, svg);
  element('rect', { class: `zone ${second}`, x: PLOT.left, y: yOf(0.5), width: PLOT.right - PLOT.left, height: (PLOT.bottom - PLOT.top) / 2 }, svg);
  // Named in the left corners: games start near the middle line.
  const zoneName = (y: number, color: typeof first) =>
    (element('text', { class: 'zone-name', x: PLOT.left + 4, y }, svg).textContent = `${sideName(state.variant, color)} better`);
  zoneName(PLOT.top + 11, first);
  zoneName(PLOT.bottom - 4, second);

  // The y axis: the first player's expected score.
  for (const share of [0, 0.25, 0.5, 0.75, 1]) {
    const y = yOf(share);
    element('line', { class: share === 0.5 ? 'grid middle' : 'grid', x1: PLOT.left, x2: PLOT.right, y1: y, y2: y }, svg);
    const label = element('text', { class: 'tick', x: PLOT.left - 4, y: y + 3, 'text-anchor': 'end' }, svg);
    label.textContent = `${Math.round(share * 100)}%`;
  }
  const yTitle = element('text', { class: 'axis-title', x: 10, y: (PLOT.top + PLOT.bottom) / 2, 'text-anchor': 'middle', transform: `rotate(-90 10 ${(PLOT.top + PLOT.bottom) / 2})` }, svg);
  yTitle.textContent = `${sideName(state.variant, first)} expected`;

  // The x axis: move numbers.
  const step = tickStep(plies);
  for (let ply = 0; ply <= plies; ply += step) {
    const x = xOf(ply, plies);
    element('line', { class: 'tick-mark', x1: x, x2: x, y1: PLOT.bottom, y2: PLOT.bottom + 4 }, svg);
    const label = element('text', { class: 'tick', x, y: PLOT.bottom + 14, 'text-anchor': 'middle' }, svg);
    label.textContent = String(ply);
  }
  const xTitle = element('text', { class: 'axis-title', x: (PLOT.left + PLOT.right) / 2, y: HEIGHT - 2, 'text-anchor': 'middle' }, svg);
  xTitle.textContent = 'Move';
  element('rect', { class: 'frame', x: PLOT.left, y: PLOT.top, width: PLOT.right - PLOT.left, height: PLOT.bottom - PLOT.top }, svg);

  // The evaluation: an area from the middle, and its line.
  const points = review.positions.map((p) => `${xOf(p.ply, plies).toFixed(1)},${yOf(p.evaluation.expected).toFixed(1)}`);
  const middle = yOf(0.5).toFixed(1);
  element('polygon', { class: 'area', points: `${xOf(0, plies)},${middle} ${points.join(' ')} ${xOf(plies, plies)},${middle}` }, svg);
  element('polyline', { class: 'curve', points: points.join(' ') }, svg);

  // Clicks anywhere over the plot go to the nearest move.
  const catcher = element('rect', { class: 'catcher', x: PLOT.left, y: PLOT.top, width: PLOT.right - PLOT.left, height: PLOT.bottom - PLOT.top }, svg);
  catcher.addEventListener('click', (event) => {
    const box = svg.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * WIDTH;
    onPick(Math.max(0, Math.min(plies, Math.round(((x - PLOT.left) / (PLOT.right - PLOT.left)) * plies))));
  });

  // The move shown.
  const cursor = xOf(Math.min(shown, plies), plies);
  element('line', { id: 'review-cursor', class: 'cursor', x1: cursor, x2: cursor, y1: PLOT.top, y2: PLOT.bottom, 'data-ply': shown }, svg);

  // A point per position; a labelled move's point is larger and coloured.
  for (const position of review.positions) {
    const label = position.ply > 0 ? review.moves[position.ply - 1]?.label : null;
    const point = element(
      'circle',
      {
        class: `point${label ? ` ${label}` : ''}${position.ply === shown ? ' current' : ''}`,
        cx: xOf(position.ply, plies).toFixed(1),
        cy: yOf(position.evaluation.expected).toFixed(1),
        r: label ? 3.6 : 2.2,
        'data-ply': position.ply,
        'data-expected': position.evaluation.expected,
      },
      svg,
    );
    element('title', {}, point).textContent = pointTitle(state, review, position);
    point.addEventListener('click', () => onPick(position.ply));
  }
}
