// The board area: the board widget and both hands (ground.ts mounts the
// widget), the clocks beside the hands, and the evaluation bar.

import { h, type VNode } from 'snabbdom';
import type { Ctrl } from '../ctrl';
import type { Ground } from '../ground';
import { t } from '../i18n';
import { colorsOf, opposite, sideName } from '../sides';
import { clockView } from './clock';
import { barText, firstAhead, scoreText } from './score';

/** The evaluation bar in the board's frame: the bottom side's share of the expected score. */
export function evalBar(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const analysis = ctrl.analysis;
  const best = analysis.analysis?.lines[0];
  if (!state || !analysis.on)
    return h('div#eval-bar.eval-bar', { props: { hidden: true } }, [h('div.eval-fill', { style: { height: '50.0%' } }), h('span.eval-text', '')]);
  const [first] = colorsOf(state.variant);
  // The server says what the evaluation means in this game.
  const firstShare = best ? best.score.expected : 0.5;
  // The fill is the bottom side's share, growing from the bottom.
  const share = ctrl.orientation === first ? firstShare : 1 - firstShare;
  const score = best ? scoreText(state.variant, best.score) : '';
  // The label stands at the end of the side ahead: the bottom when it is the bottom side.
  const bottomAhead = best ? firstAhead(best.score) === (ctrl.orientation === first) : true;
  const title = best
    ? t('board.evalTitle', { score, depth: analysis.analysis?.depth ?? 0, side: sideName(state.variant, first), percent: Math.round(firstShare * 100) })
    : t('board.evaluation');
  return h('div#eval-bar.eval-bar', { props: { hidden: false }, attrs: { title }, dataset: { share: firstShare.toFixed(3) } }, [
    h('div.eval-fill', { style: { height: `${(share * 100).toFixed(1)}%` } }),
    h('span.eval-text', { class: { 'at-top': !bottomAhead, 'at-bottom': bottomAhead } }, best ? barText(state.variant, best.score) : ''),
  ]);
}

/**
 * The board, hands, clocks and evaluation bar. The area is keyed by the
 * game: another game gets fresh elements (each widget leaves its own classes
 * on its elements), and the widget is made and updated by `ground`'s hooks.
 */
export function boardArea(ctrl: Ctrl, ground: Ground, now: number): VNode {
  const state = ctrl.state;
  const variant = ctrl.variantInfo();
  if (!state || !variant)
    return h('div#board-area.board-area', [h('div.board-box', [h('div#board.board')])]);
  const bottom = ctrl.orientation;
  const top = opposite(state.variant, bottom);
  const hand = (id: string, color: typeof top, place: 'top' | 'bottom'): VNode => {
    const name = sideName(state.variant, color, state.handicap);
    // No children: the widget owns what is inside.
    return h(`div#${id}.hand.${id}`, {
      attrs: { 'aria-label': t('board.handLabel', { place: t(`board.${place}`) }), title: t('board.handTitle', { side: name }) },
      dataset: { label: name, color },
    });
  };
  return h(
    'div#board-area.board-area',
    {
      key: variant.id,
      dataset: { variant: variant.id, widget: variant.widget, top, bottom, clock: state.clock ? 'on' : '' },
      style: { '--files': String(variant.files), '--ranks': String(variant.ranks) },
      hook: ground.hooks({
        variant,
        pieceSet: ctrl.pieceSet,
        orientation: ctrl.orientation,
        view: ctrl.boardView()!,
        resets: ctrl.boardResets,
        arrows: ctrl.arrows(),
      }),
    },
    [
      h('div.beside.beside-top', [clockView(ctrl, 'clock-top', top, now), hand('hand-top', top, 'top')]),
      h('div.board-box', [evalBar(ctrl), h('div#board.board')]),
      h('div.beside.beside-bottom', [hand('hand-bottom', bottom, 'bottom'), clockView(ctrl, 'clock-bottom', bottom, now)]),
    ],
  );
}
