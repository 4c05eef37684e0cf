// Find mate, under the analysis: the button, the answer, and the mate line
// whose moves show the line on the board.

import { h, type VNode } from 'snabbdom';
import type { Ctrl } from '../ctrl';
import { t } from '../i18n';
import { MATE_SECONDS } from '../mate';
import { moveText } from './move-text';

function answer(ctrl: Ctrl): VNode[] {
  const mate = ctrl.mate;
  const found = mate.found;
  if (!found) return [];
  const seconds = (found.milliseconds / 1000).toFixed(1);
  const nodes = found.nodes.toLocaleString('en');
  const summary =
    found.answer === 'mate'
      ? t('mate.mate', { length: found.length, nodes, seconds })
      : found.answer === 'nomate'
        ? t('mate.nomate', { nodes, seconds })
        : t('mate.unknown', { seconds });
  // A registered engine's answer says whose it is.
  const by = found.engine && found.engine !== 'koma' ? ' ' + t('mate.by', { engine: found.engine }) : '';
  const parts = [h('p.mate-summary', summary + by)];
  if (found.answer !== 'mate') return parts;
  // The length counts as problems do; the line goes on to checkmate on the board.
  const uncounted = found.line.length - found.length;
  if (uncounted > 0) parts.push(h('p.mate-uncounted', t('mate.uncounted', { plies: uncounted })));
  parts.push(
    h(
      'ol.mate-line',
      found.line.map((move, index) =>
        h('li', [
          h(
            'button',
            {
              attrs: { type: 'button', title: move.usi, ...(index === mate.step ? { 'aria-current': 'step' } : {}) },
              class: { current: index === mate.step },
              dataset: { step: String(index) },
              on: { click: () => ctrl.mateStep(index) },
            },
            moveText(move),
          ),
        ]),
      ),
    ),
  );
  if (mate.step !== undefined)
    parts.push(h('button#mate-back', { attrs: { type: 'button' }, on: { click: () => ctrl.mateStep(undefined) } }, t('analysis.backToGame')));
  return parts;
}

/** The mate search's button and answer (hidden where it is not offered). */
export function mateView(ctrl: Ctrl, allowed: boolean): VNode {
  const mate = ctrl.mate;
  let output: VNode;
  if (mate.searching)
    output = h(
      'div#mate-output.mate-output.searching',
      { attrs: { 'aria-live': 'polite' } },
      t('mate.searching', { seconds: MATE_SECONDS }),
    );
  else
    output = h('div#mate-output.mate-output', { attrs: { 'aria-live': 'polite' }, class: { error: !!mate.failure } }, [
      // The server's refusal, in English.
      ...(mate.failure ? [mate.failure] : []),
      ...answer(ctrl),
    ]);
  return h('div#mate-panel.mate', { props: { hidden: !allowed } }, [
    h(
      'button#find-mate',
      {
        attrs: { type: 'button', title: t('mate.findTitle') },
        props: { disabled: mate.searching || !allowed },
        on: { click: () => ctrl.findMate() },
      },
      t('mate.find'),
    ),
    output,
  ]);
}
