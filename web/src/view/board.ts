// The board area: the board widget and both hands (ground.ts mounts the
// widget), the clocks beside the hands, and the evaluation bar.

import { h, type VNode } from 'snabbdom';
import { arrows, boardView, previewBoard } from '../board-view';
import type { Ctrl } from '../ctrl';
import type { Ground } from '../ground';
import { t } from '../i18n';
import type { Color, Level } from '../api';
import { colorsOf, opposite, sideName } from '../sides';
import { clockView } from './clock';
import { barText, firstAhead, scoreText } from './score';

/** The evaluation bar in the board's frame: the bottom side's share of the expected score. */
export function evalBar(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const analysis = ctrl.analysis;
  const best = analysis.analysis?.lines[0];
  if (!state || !analysis.on || ctrl.preview)
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

/** The computer as its player's label names it: the registered engine, the perfect player, or Koma's engine at its level. */
function computerName(opponent: { level?: Level; engine?: string }): string {
  if (opponent.engine) return t('player.engine', { engine: opponent.engine });
  return opponent.level === 'perfect' ? t('player.perfect') : t('player.computer', { level: opponent.level ?? '' });
}

/**
 * Who plays `side`, where that says something: the computer (and its
 * level), or on two machines you and your opponent. At one screen both
 * sides are the people there: nothing is said.
 */
export function whoPlays(ctrl: Ctrl, side: Color): string {
  const state = ctrl.state;
  if (!state) return '';
  const opponent = state.opponent;
  if (opponent.kind === 'computer')
    return opponent.color === side ? computerName(opponent) : t('player.you');
  const seating = ctrl.seats();
  if (state.mode === 'shared' && seating && seating.sides.length === 1) return seating.holds(side) ? t('player.you') : t('player.opponent');
  return '';
}

/**
 * The board, hands, clocks and evaluation bar. The area is keyed by the
 * game: another game gets fresh elements (each widget leaves its own classes
 * on its elements), and the widget is made and updated by `ground`'s hooks.
 */
export function boardArea(ctrl: Ctrl, ground: Ground, now: number): VNode {
  const state = ctrl.state;
  // While the Game menu previews another game, the board is that game's start, with no clocks, players or evaluation.
  const preview = previewBoard(ctrl);
  const variant = preview?.variant ?? ctrl.variantInfo();
  if (!state || !variant)
    return h('div#board-area.board-area', [h('div.board-box', [h('div#board.board')])]);
  const bottom = preview?.orientation ?? ctrl.orientation;
  const top = opposite(variant.id, bottom);
  const handicap = preview ? undefined : state.handicap;
  const who = (color: Color): string => (preview ? '' : whoPlays(ctrl, color));
  const clock = (id: string, color: Color): VNode => (preview ? h(`div#${id}.clock`, { props: { hidden: true } }) : clockView(ctrl, id, color, now));
  const hand = (id: string, color: typeof top, place: 'top' | 'bottom'): VNode => {
    const name = sideName(variant.id, color, handicap);
    // No children: the widget owns what is inside.
    return h(`div#${id}.hand.${id}`, {
      attrs: { 'aria-label': t('board.handLabel', { place: t(`board.${place}`) }), title: t('board.handTitle', { side: name }) },
      dataset: { label: name, color },
    });
  };
  // Who plays each side, where that says something; in Pawns-Only Chess, which has no hands, the side's name too.
  const player = (id: string, color: typeof top): VNode => {
    const plays = who(color);
    return h(`div#${id}.player-name`, { dataset: { color } }, [h('span.player-side', sideName(variant.id, color, handicap)), ...(plays ? [h('span.player-who', plays)] : [])]);
  };
  return h(
    'div#board-area.board-area',
    {
      key: variant.id,
      dataset: { variant: variant.id, widget: variant.widget, top, bottom, clock: state.clock && !preview ? 'on' : '', preview: preview ? 'on' : '' },
      style: { '--files': String(variant.files), '--ranks': String(variant.ranks) },
      hook: ground.hooks({
        variant,
        pieceSet: ctrl.settings.pieceSet,
        orientation: bottom,
        view: boardView(ctrl)!,
        resets: ctrl.boardResets,
        arrows: arrows(ctrl),
        premove: ctrl.premove?.usi,
      }),
    },
    [
      h('div.beside.beside-top', [player('player-top', top), clock('clock-top', top), hand('hand-top', top, 'top')]),
      h('div.board-box', [evalBar(ctrl), h('div#board.board')]),
      h('div.beside.beside-bottom', [player('player-bottom', bottom), hand('hand-bottom', bottom, 'bottom'), clock('clock-bottom', bottom)]),
    ],
  );
}
