// Find mate, under the analysis: the button, the answer, and the mate line
// whose moves show the line on the board.

import { h, type VNode } from 'snabbdom';
import type { Ctrl } from '../ctrl';
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
      ? `Mate in ${found.length} (${nodes} nodes, ${seconds} s):`
      : found.answer === 'nomate'
        ? `No mate: every line of checks fails (${nodes} nodes, ${seconds} s).`
        : `No mate found in ${seconds} s (the search ran out of time).`;
  const parts = [h('p.mate-summary', summary)];
  if (found.answer !== 'mate') return parts;
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
    parts.push(h('button#mate-back', { attrs: { type: 'button' }, on: { click: () => ctrl.mateStep(undefined) } }, 'Back to the game'));
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
      `Looking for a mate (up to ${MATE_SECONDS} s; if other searches run, this one waits its turn)…`,
    );
  else
    output = h('div#mate-output.mate-output', { attrs: { 'aria-live': 'polite' }, class: { error: !!mate.failure } }, [
      ...(mate.failure ? [mate.failure] : []),
      ...answer(ctrl),
    ]);
  return h('div#mate-panel.mate', { props: { hidden: !allowed } }, [
    h(
      'button#find-mate',
      {
        attrs: { type: 'button', title: 'Look for a mate by checks from the position shown (tsume): the mate solver, not the engine' },
        props: { disabled: mate.searching || !allowed },
        on: { click: () => ctrl.findMate() },
      },
      'Find mate',
    ),
    output,
  ]);
}
