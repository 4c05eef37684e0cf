// The evaluation graph of a reviewed game: the first player's expected
// score after every move, as a plot with axes, each side's zone, the
// inaccuracies, mistakes and blunders marked, and the move shown as a
// cursor. Clicking a point (or anywhere over the plot) shows that move.

import { h, type VNode } from 'snabbdom';
import type { GameReview, GameState, PositionReview } from '../api';
import { colorsOf, sideName } from '../sides';
import { t } from '../i18n';
import { labelWords } from './moves';
import { moveText } from './move-text';
import { scoreText } from './score';

/** The drawing's size in its own units (it scales to the panel's width). */
const WIDTH = 320;
const HEIGHT = 168;
/** The plot inside the axes' labels. */
const PLOT = { left: 36, right: 312, top: 10, bottom: 138 };

/** The x of move number `ply` of a game of `plies` moves. */
function xOf(ply: number, plies: number): number {
  return PLOT.left + ((PLOT.right - PLOT.left) * ply) / Math.max(1, plies);
}

/** The y of the first player's expected score `share`. */
function yOf(share: number): number {
  return PLOT.bottom - (PLOT.bottom - PLOT.top) * share;
}

/** A step between labelled moves on the x axis that leaves room for the numbers. */
export function tickStep(plies: number): number {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500]) if (plies / step <= 8) return step;
  return 1000;
}

/** What a point says when the pointer rests on it. */
export function pointTitle(state: GameState, review: GameReview, position: PositionReview): string {
  const score = position.evaluation;
  const value = 'mate' in score && score.mate === 0 ? t('graph.over') : scoreText(state.variant, score);
  const [first] = colorsOf(state.variant);
  const share = t('graph.share', { side: sideName(state.variant, first), percent: Math.round(score.expected * 100) });
  if (position.ply === 0) return t('graph.start', { value, share });
  const move = state.moves[position.ply - 1];
  let text = t('graph.point', { ply: position.ply, move: move ? moveText(move) : '', value, share });
  const judged = review.moves[position.ply - 1];
  if (judged?.label) text += t('graph.labelled', { label: labelWords(judged.label) });
  if (judged?.label && judged.better) text += t('graph.better_move', { move: moveText(judged.better) });
  return text;
}

const svg = (name: string, attrs: Record<string, string | number>, children: (VNode | string)[] = [], extra: object = {}): VNode =>
  h(name, { attrs, ...extra }, children);

/** The graph of `review` of `state`, the move `shown` marked; `onPick` is called with the move clicked. */
export function reviewGraph(state: GameState, review: GameReview, shown: number, onPick: (ply: number) => void): VNode {
  const plies = review.positions.length - 1;
  const [first, second] = colorsOf(state.variant);
  const width = PLOT.right - PLOT.left;
  const height = PLOT.bottom - PLOT.top;
  const parts: VNode[] = [];
  // Each side's zone: the first player's above the middle, named in the left corners (games start near the middle line).
  parts.push(svg('rect', { class: `zone ${first}`, x: PLOT.left, y: PLOT.top, width, height: height / 2 }));
  parts.push(svg('rect', { class: `zone ${second}`, x: PLOT.left, y: yOf(0.5), width, height: height / 2 }));
  parts.push(svg('text', { class: 'zone-name', x: PLOT.left + 4, y: PLOT.top + 11 }, [t('graph.better', { side: sideName(state.variant, first) })]));
  parts.push(svg('text', { class: 'zone-name', x: PLOT.left + 4, y: PLOT.bottom - 4 }, [t('graph.better', { side: sideName(state.variant, second) })]));
  // The y axis: the first player's expected score.
  for (const share of [0, 0.25, 0.5, 0.75, 1]) {
    const y = yOf(share);
    parts.push(svg('line', { class: share === 0.5 ? 'grid middle' : 'grid', x1: PLOT.left, x2: PLOT.right, y1: y, y2: y }));
    parts.push(svg('text', { class: 'tick', x: PLOT.left - 4, y: y + 3, 'text-anchor': 'end' }, [`${Math.round(share * 100)}%`]));
  }
  const middleY = (PLOT.top + PLOT.bottom) / 2;
  parts.push(
    svg('text', { class: 'axis-title', x: 10, y: middleY, 'text-anchor': 'middle', transform: `rotate(-90 10 ${middleY})` }, [
      t('graph.expected', { side: sideName(state.variant, first) }),
    ]),
  );
  // The x axis: move numbers.
  const step = tickStep(plies);
  for (let ply = 0; ply <= plies; ply += step) {
    const x = xOf(ply, plies);
    parts.push(svg('line', { class: 'tick-mark', x1: x, x2: x, y1: PLOT.bottom, y2: PLOT.bottom + 4 }));
    parts.push(svg('text', { class: 'tick', x, y: PLOT.bottom + 14, 'text-anchor': 'middle' }, [String(ply)]));
  }
  parts.push(svg('text', { class: 'axis-title', x: (PLOT.left + PLOT.right) / 2, y: HEIGHT - 2, 'text-anchor': 'middle' }, [t('graph.move')]));
  parts.push(svg('rect', { class: 'frame', x: PLOT.left, y: PLOT.top, width, height }));
  // The evaluation: an area from the middle, and its line.
  const points = review.positions.map((p) => `${xOf(p.ply, plies).toFixed(1)},${yOf(p.evaluation.expected).toFixed(1)}`);
  const middle = yOf(0.5).toFixed(1);
  parts.push(svg('polygon', { class: 'area', points: `${xOf(0, plies)},${middle} ${points.join(' ')} ${xOf(plies, plies)},${middle}` }));
  parts.push(svg('polyline', { class: 'curve', points: points.join(' ') }));
  // Clicks anywhere over the plot go to the nearest move.
  const onCatch = (event: MouseEvent): void => {
    const box = (event.currentTarget as SVGElement).ownerSVGElement!.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * WIDTH;
    onPick(Math.max(0, Math.min(plies, Math.round(((x - PLOT.left) / width) * plies))));
  };
  parts.push(svg('rect', { class: 'catcher', x: PLOT.left, y: PLOT.top, width, height }, [], { on: { click: onCatch } }));
  // The move shown.
  const cursor = xOf(Math.min(shown, plies), plies);
  parts.push(svg('line', { id: 'review-cursor', class: 'cursor', x1: cursor, x2: cursor, y1: PLOT.top, y2: PLOT.bottom, 'data-ply': shown }));
  // A point per position; a labelled move's point is larger and coloured.
  for (const position of review.positions) {
    const label = position.ply > 0 ? review.moves[position.ply - 1]?.label : null;
    parts.push(
      svg(
        'circle',
        {
          class: `point${label ? ` ${label}` : ''}${position.ply === shown ? ' current' : ''}`,
          cx: xOf(position.ply, plies).toFixed(1),
          cy: yOf(position.evaluation.expected).toFixed(1),
          r: label ? 3.6 : 2.2,
          'data-ply': position.ply,
          'data-expected': position.evaluation.expected,
        },
        [svg('title', {}, [pointTitle(state, review, position)])],
        { on: { click: () => onPick(position.ply) } },
      ),
    );
  }
  return h(
    'svg#review-graph.review-graph',
    { attrs: { role: 'img', 'aria-label': t('graph.label'), viewBox: `0 0 ${WIDTH} ${HEIGHT}` } },
    parts,
  );
}
