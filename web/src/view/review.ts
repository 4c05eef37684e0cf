// The Game review panel: the button, the progress, the graph and each
// side's accuracy and counts.

import { h, type VNode } from 'snabbdom';
import type { GameReview, GameState } from '../api';
import { AnalysisCtrl } from '../analysis';
import type { Ctrl } from '../ctrl';
import { t } from '../i18n';
import { colorsOf, sideName } from '../sides';
import { exercisesOf, learnSide } from '../learn';
import type { Color } from '../api';
import { select } from './form';

function summary(state: GameState, review: GameReview): VNode {
  const head = ['', t('review.accuracy'), '?!', '?', '??'].map((title) => {
    const titles: Record<string, string> = {
      '?!': t('review.inaccuracies'),
      '?': t('review.mistakes'),
      '??': t('review.blunders'),
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
    h('caption', t('review.caption', { engine: review.engine && review.engine !== 'koma' ? review.engine : 'Koma', nodes: review.nodes.toLocaleString('en') })),
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
        ? t('review.waiting', { cap: progress.engines.cap })
        : t('review.progress', { done, total });
  return h('div#review-progress.review-progress', { attrs: { 'aria-live': 'polite' }, class: { error: !!failure }, props: { hidden: !running && !failure } }, [
    h('progress#review-bar', { attrs: { max: total }, props: { value: done, hidden: !running } }),
    h('span#review-progress-text', text),
  ]);
}

/** Learn from your mistakes: the side (the page's own when it plays one) and the button. */
function learnStart(ctrl: Ctrl, state: GameState, review: GameReview): VNode {
  const sides = ctrl.seats()?.sides ?? [];
  const chosen = ctrl.learnChoice && colorsOf(state.variant).includes(ctrl.learnChoice) ? ctrl.learnChoice : learnSide(state, sides);
  const count = chosen ? exercisesOf(state, review, chosen).length : 0;
  return h('div#learn-start.learn-start', [
    h(
      'button#learn-button',
      {
        attrs: { type: 'button', title: t('learn.buttonTitle') },
        props: { disabled: !chosen || count === 0 },
        on: { click: () => chosen && ctrl.startLearning(chosen) },
      },
      t('learn.button'),
    ),
    h('label.learn-side', [
      t('learn.side'),
      select(
        'learn-side',
        chosen ?? '',
        colorsOf(state.variant).map((color: Color) => [color, t('learn.sideOption', { side: sideName(state.variant, color, state.handicap), count: exercisesOf(state, review, color).length })]),
        (value) => ctrl.chooseLearnSide(value as Color),
      ),
    ]),
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
    h('h2', t('review.title')),
    h(
      'button#review-game',
      {
        attrs: {
          type: 'button',
          title: t('review.buttonTitle', { positions: state.ply + 1 }),
        },
        props: { hidden: !!review || running || !allowed },
        on: { click: () => ctrl.askReview() },
      },
      t('review.button'),
    ),
    progressView(ctrl, state, running),
    ...(review ? [summary(state, review), learnStart(ctrl, state, review)] : []),
  ]);
}
