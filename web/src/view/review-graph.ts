// The evaluation graph of a reviewed game: the first player's expected
// score after every move, as a plot with axes, each side's zone, the
// inaccuracies, mistakes and blunders marked, and the move shown as a
// cursor. It stands under the board, as wide as the board's column, drawn
// at the width it is shown (so its 13 px text stays 13 px); a line
// follows the pointer and the caption above says that move and its
// evaluation; a click shows that move.

import { h, type VNode } from 'snabbdom';
import type { GameReview, GameState, PositionReview } from '../api';
import type { Ctrl } from '../ctrl';
import { colorsOf, sideName } from '../sides';
import { t } from '../i18n';
import { labelWords } from './moves';
import { moveText } from './move-text';
import { scoreText } from './score';

/** The text's size, in pixels (the graph is drawn at its shown width). */
export const GRAPH_FONT = 13;
export const GRAPH_HEIGHT = 220;
/** The narrowest the graph is drawn (a phone's column). */
export const MIN_GRAPH_WIDTH = 300;

/** Where the plot stands inside the axes' labels, and how moves and scores map onto it. */
export interface GraphScales {
  width: number;
  height: number;
  plot: { left: number; right: number; top: number; bottom: number };
  /** The x of move number `ply`. */
  x(ply: number): number;
  /** The y of the first player's expected score `share` (0 to 1). */
  y(share: number): number;
  /** The move nearest to `x`. */
  plyAt(x: number): number;
}

/** The scales of a graph of `plies` moves drawn `width` pixels wide. */
export function graphScales(plies: number, width: number): GraphScales {
  const w = Math.max(MIN_GRAPH_WIDTH, Math.round(width));
  // Room on the left for "100%" and the rotated axis title, below for the move numbers and theirs.
  const plot = { left: GRAPH_FONT * 4.4, right: w - GRAPH_FONT, top: GRAPH_FONT, bottom: GRAPH_HEIGHT - GRAPH_FONT * 3.2 };
  const span = Math.max(1, plies);
  const x = (ply: number): number => plot.left + ((plot.right - plot.left) * ply) / span;
  const y = (share: number): number => plot.bottom - (plot.bottom - plot.top) * share;
  const plyAt = (at: number): number => Math.max(0, Math.min(plies, Math.round(((at - plot.left) / (plot.right - plot.left)) * span)));
  return { width: w, height: GRAPH_HEIGHT, plot, x, y, plyAt };
}

/** A step between labelled moves on the x axis: a label at least every 45 px. */
export function tickStep(plies: number, plotWidth = 270): number {
  const most = Math.max(2, Math.floor(plotWidth / (GRAPH_FONT * 3.5)));
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500]) if (plies / step <= most) return step;
  return 1000;
}

/** The labelled moves on the x axis. */
export function xTicks(plies: number, plotWidth?: number): number[] {
  const step = tickStep(plies, plotWidth);
  const ticks: number[] = [];
  for (let ply = 0; ply <= plies; ply += step) ticks.push(ply);
  return ticks;
}

/** The y axis's labels: the first player's expected score in quarters. */
export function yTicks(): { share: number; label: string }[] {
  return [0, 0.25, 0.5, 0.75, 1].map((share) => ({ share, label: `${Math.round(share * 100)}%` }));
}

/** What the graph says of position `position`: its move in the notation chosen, its evaluation and its label. */
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

/** What the graph does with the pointer: a move clicked, a move under the pointer (`undefined`: it left). */
export interface GraphActions {
  pick(ply: number): void;
  hover(ply: number | undefined): void;
}

/**
 * The graph of `review` of `state`, `width` pixels wide, the move `shown`
 * marked and the move `hovered` (under the pointer) lined.
 */
export function reviewGraph(
  state: GameState,
  review: GameReview,
  shown: number,
  width: number,
  actions: GraphActions,
  hovered?: number,
): VNode {
  const plies = review.positions.length - 1;
  const scales = graphScales(plies, width);
  const { plot, x: xOf, y: yOf } = scales;
  const [first, second] = colorsOf(state.variant);
  const plotWidth = plot.right - plot.left;
  const plotHeight = plot.bottom - plot.top;
  const parts: VNode[] = [];
  // Each side's zone: the first player's above the middle, named in the left corners (games start near the middle line).
  parts.push(svg('rect', { class: `zone ${first}`, x: plot.left, y: plot.top, width: plotWidth, height: plotHeight / 2 }));
  parts.push(svg('rect', { class: `zone ${second}`, x: plot.left, y: yOf(0.5), width: plotWidth, height: plotHeight / 2 }));
  parts.push(svg('text', { class: 'zone-name', x: plot.left + 6, y: plot.top + GRAPH_FONT + 2 }, [t('graph.better', { side: sideName(state.variant, first) })]));
  parts.push(svg('text', { class: 'zone-name', x: plot.left + 6, y: plot.bottom - 6 }, [t('graph.better', { side: sideName(state.variant, second) })]));
  for (const { share, label } of yTicks()) {
    const y = yOf(share);
    parts.push(svg('line', { class: share === 0.5 ? 'grid middle' : 'grid', x1: plot.left, x2: plot.right, y1: y, y2: y }));
    parts.push(svg('text', { class: 'tick', x: plot.left - 5, y: y + GRAPH_FONT / 3, 'text-anchor': 'end' }, [label]));
  }
  const middleY = (plot.top + plot.bottom) / 2;
  const titleX = GRAPH_FONT * 0.9;
  parts.push(
    svg('text', { class: 'axis-title', x: titleX, y: middleY, 'text-anchor': 'middle', transform: `rotate(-90 ${titleX} ${middleY})` }, [
      t('graph.expected', { side: sideName(state.variant, first) }),
    ]),
  );
  for (const ply of xTicks(plies, plotWidth)) {
    const x = xOf(ply);
    parts.push(svg('line', { class: 'tick-mark', x1: x, x2: x, y1: plot.bottom, y2: plot.bottom + 5 }));
    parts.push(svg('text', { class: 'tick x-tick', x, y: plot.bottom + GRAPH_FONT + 5, 'text-anchor': 'middle' }, [String(ply)]));
  }
  parts.push(svg('text', { class: 'axis-title', x: (plot.left + plot.right) / 2, y: GRAPH_HEIGHT - 4, 'text-anchor': 'middle' }, [t('graph.move')]));
  parts.push(svg('rect', { class: 'frame', x: plot.left, y: plot.top, width: plotWidth, height: plotHeight }));
  // The evaluation: an area from the middle, and its line.
  const points = review.positions.map((p) => `${xOf(p.ply).toFixed(1)},${yOf(p.evaluation.expected).toFixed(1)}`);
  const middle = yOf(0.5).toFixed(1);
  parts.push(svg('polygon', { class: 'area', points: `${xOf(0)},${middle} ${points.join(' ')} ${xOf(plies)},${middle}` }));
  parts.push(svg('polyline', { class: 'curve', points: points.join(' ') }));
  // The pointer anywhere over the plot means the nearest move.
  const plyOf = (event: MouseEvent): number => {
    const box = (event.currentTarget as SVGElement).ownerSVGElement!.getBoundingClientRect();
    return scales.plyAt(((event.clientX - box.left) / box.width) * scales.width);
  };
  parts.push(
    svg('rect', { class: 'catcher', x: plot.left, y: plot.top, width: plotWidth, height: plotHeight }, [], {
      on: {
        click: (event: MouseEvent) => actions.pick(plyOf(event)),
        mousemove: (event: MouseEvent) => actions.hover(plyOf(event)),
      },
    }),
  );
  // The move shown, and the one under the pointer.
  const cursor = xOf(Math.min(shown, plies));
  parts.push(svg('line', { id: 'review-cursor', class: 'cursor', x1: cursor, x2: cursor, y1: plot.top, y2: plot.bottom, 'data-ply': shown }));
  if (hovered !== undefined && hovered <= plies) {
    const x = xOf(hovered);
    parts.push(svg('line', { id: 'review-hover', class: 'hover', x1: x, x2: x, y1: plot.top, y2: plot.bottom, 'data-ply': hovered }));
  }
  // A point per position; a labelled move's point is larger and coloured.
  for (const position of review.positions) {
    const label = position.ply > 0 ? review.moves[position.ply - 1]?.label : null;
    parts.push(
      svg(
        'circle',
        {
          class: `point${label ? ` ${label}` : ''}${position.ply === shown ? ' current' : ''}`,
          cx: xOf(position.ply).toFixed(1),
          cy: yOf(position.evaluation.expected).toFixed(1),
          r: label ? 4.5 : 2.6,
          'data-ply': position.ply,
          'data-expected': position.evaluation.expected,
        },
        [svg('title', {}, [pointTitle(state, review, position)])],
        { on: { click: () => actions.pick(position.ply), mouseenter: () => actions.hover(position.ply) } },
      ),
    );
  }
  return h(
    'svg#review-graph.review-graph',
    {
      attrs: { role: 'img', 'aria-label': t('graph.label'), viewBox: `0 0 ${scales.width} ${GRAPH_HEIGHT}`, width: scales.width, height: GRAPH_HEIGHT },
      // The pointer leaving the drawing (from the plot or from a point) ends the hover line.
      on: { mouseleave: () => actions.hover(undefined) },
    },
    parts,
  );
}

/**
 * The graph under the board, once the game shown is reviewed: a caption
 * saying the move under the pointer (else the move shown), and the graph
 * drawn at the box's width, measured as the window changes.
 */
export function reviewGraphBox(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const review = state?.review;
  if (!state || !review) return h('div#review-graph-box.review-graph-box', { key: 'none', props: { hidden: true } });
  const plies = review.positions.length - 1;
  const hovered = ctrl.graphHover !== undefined && ctrl.graphHover <= plies ? ctrl.graphHover : undefined;
  const about = review.positions[hovered ?? Math.min(ctrl.shown(), plies)];
  const measure = (vnode: VNode): void => {
    const element = vnode.elm as HTMLElement;
    const follow = (): void => ctrl.setGraphWidth(element.clientWidth);
    follow();
    if (typeof ResizeObserver !== 'undefined') new ResizeObserver(follow).observe(element);
  };
  return h('div#review-graph-box.review-graph-box', { key: 'graph', props: { hidden: false }, hook: { insert: measure } }, [
    h('div#review-graph-caption.review-graph-caption', { attrs: { 'aria-live': 'polite' } }, about ? pointTitle(state, review, about) : ''),
    reviewGraph(state, review, ctrl.shown(), ctrl.graphWidth, { pick: (ply) => ctrl.goTo(ply), hover: (ply) => ctrl.hoverGraph(ply) }, hovered),
  ]);
}
