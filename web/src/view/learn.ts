// Learn from your mistakes: the prompt at the top of the side column while
// the mode is on (which mistake, what to find, how the move tried was
// judged, the buttons), and the summary at the end.

import { h, type VNode } from 'snabbdom';
import type { Ctrl } from '../ctrl';
import { t } from '../i18n';
import { sideName } from '../sides';
import { labelWords } from './moves';
import { moveText } from './move-text';

/**
 * Brings the prompt into view when the mode starts: the button that starts
 * it is further down the column, the prompt at its top beside the board.
 */
const intoView = {
  postpatch: (old: VNode, vnode: VNode): void => {
    if (old.data?.props?.hidden && !vnode.data?.props?.hidden) window.scrollTo({ top: 0 });
  },
};

function learnButton(id: string, text: string, action: () => void, primary = false): VNode {
  return h(`button#${id}`, { attrs: { type: 'button' }, class: { primary }, on: { click: action } }, text);
}

/** The prompt while learning from mistakes (hidden otherwise). */
export function learnPanel(ctrl: Ctrl): VNode {
  const learn = ctrl.learn;
  const state = ctrl.state;
  if (!state || !learn.active()) return h('section#learn-panel.panel.learn', { props: { hidden: true }, hook: intoView });
  const side = sideName(state.variant, learn.side!, state.handicap);
  const exit = learnButton('learn-exit', t('learn.exit'), () => ctrl.stopLearning());
  if (learn.status === 'done') {
    const summary = learn.summary();
    return h('section#learn-panel.panel.learn', { props: { hidden: false }, hook: intoView, dataset: { status: 'done' } }, [
      h('h2', t('learn.title')),
      h('p#learn-prompt.learn-prompt', t('learn.summary', { solved: summary.solved, total: summary.total })),
      h('p.learn-detail', t('learn.summaryDetail', { shown: summary.shown, skipped: summary.skipped })),
      h('div.learn-buttons', [learnButton('learn-retry', t('learn.retry'), () => ctrl.learnAction('retry')), exit]),
    ]);
  }
  const exercise = learn.current()!;
  const prompt = t('learn.prompt', {
    label: labelWords(exercise.label),
    index: learn.index + 1,
    total: learn.exercises.length,
    move: moveText(exercise.played),
  });
  const verdicts: Record<string, string> = {
    find: learn.legal.length === 0 ? t('learn.loading') : t('learn.yourTurn', { side }),
    checking: t('learn.checking'),
    good: t('learn.good'),
    wrong: t('learn.wrong'),
    shown: exercise.better ? t('learn.answer', { move: moveText(exercise.better) }) : t('learn.noAnswer'),
  };
  const settled = learn.status === 'good' || learn.status === 'shown';
  const buttons = settled
    ? [learnButton('learn-next', t(learn.index + 1 < learn.exercises.length ? 'learn.next' : 'learn.finish'), () => ctrl.learnAction('next'), true)]
    : [learnButton('learn-answer', t('learn.showAnswer'), () => ctrl.learnAction('answer')), learnButton('learn-skip', t('learn.skip'), () => ctrl.learnAction('skip'))];
  return h('section#learn-panel.panel.learn', { props: { hidden: false }, hook: intoView, dataset: { status: learn.status, ply: String(exercise.ply) } }, [
    h('h2', t('learn.title')),
    h('p#learn-prompt.learn-prompt', prompt),
    h(
      'p#learn-verdict.learn-verdict',
      { attrs: { 'aria-live': 'polite' }, class: { good: learn.status === 'good', wrong: learn.status === 'wrong' || !!learn.failure } },
      // The server's refusal, in English, else the page's words.
      learn.failure ?? verdicts[learn.status],
    ),
    h('div.learn-buttons', [...buttons, exit]),
  ]);
}
