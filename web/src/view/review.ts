// The Game review panel: the button, the progress, the graph and each
// side's accuracy and counts.

import { h, type VNode } from 'snabbdom';
import type { GameReview, GameState } from '../api';
import { AnalysisCtrl } from '../analysis';
import type { Ctrl } from '../ctrl';
import { colorsOf, sideName } from '../sides';
import { reviewGraph } from './review-graph';

function summary(state: GameState, review: GameReview): VNode {
  const head = ['', 'Accuracy', '?!', '?', '??'].map((title) => {
    const titles: Record<string, string> = {
      '?!': 'Inaccuracies: 5 % or more of the expected score lost',
      '?': 'Mistakes: 10 % or more',
      '??': 'Blunders: 15 % or more',
    };
    return h('th', titles[title] ? { attrs: { title: titles[title] } } : {}, title);
  });
  const rows: VNode[] = [];
  for (const color of colorsOf(state.variant)) {
    const side = review.sides[color];
    if (!side) continue;
    rows.push(
      h('tr', { dataset: { side: color } }, [
        h('th', sideName(state.variant, color)),
        ...[`${side.accuracy.toFixed(1)} %`, side.inaccuracies, side.mistakes, side.blunders].map((value) => h('td', String(value))),
      ]),
    );
  }
  return h('table#review-summary.review-summary', [
    h('caption', `Koma at ${review.nodes.toLocaleString('en')} nodes a position`),
    h('thead', [h('tr', head)]),
    h('tbody', rows),
  ]);
}

function progressView(ctrl: Ctrl, state: GameState, running: boolean): VNode {
  const failure = ctrl.review.failure;
  const progress = ctrl.review.progress;
  const total = progress?.total ?? state.ply + 1;
  const done = progress?.done ?? 0;
  let text = '';
  if (failure) text = failure;
  else if (running)
    text =
      progress?.status === 'waiting'
        ? `Waiting for an engine: all ${progress.engines.cap} of the server's are busy.`
        : `Reviewing: ${done} of ${total} positions judged…`;
  return h('div#review-progress.review-progress', { attrs: { 'aria-live': 'polite' }, class: { error: !!failure }, props: { hidden: !running && !failure } }, [
    h('progress#review-bar', { attrs: { max: total }, props: { value: done, hidden: !running } }),
    h('span#review-progress-text', text),
  ]);
}

/** The review panel for the game shown. */
export function reviewPanel(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  if (!state) return h('section#review-panel.panel.review', { props: { hidden: true } });
  const review = state.review;
  const allowed = AnalysisCtrl.allowed(state) && state.ply > 0;
  const running = ctrl.review.running() && !review;
  return h('section#review-panel.panel.review', { props: { hidden: !allowed && !review } }, [
    h('h2', 'Game review'),
    h(
      'button#review-game',
      {
        attrs: {
          type: 'button',
          title: `The engine judges each of the ${state.ply + 1} positions; mistakes are marked in the move list and on a graph.`,
        },
        props: { hidden: !!review || running || !allowed },
        on: { click: () => ctrl.askReview() },
      },
      'Review this game',
    ),
    progressView(ctrl, state, running),
    ...(review ? [reviewGraph(state, review, ctrl.shown(), (ply) => ctrl.goTo(ply)), summary(state, review)] : []),
  ]);
}
