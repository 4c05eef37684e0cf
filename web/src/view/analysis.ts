// The Analysis panel: the switch, where the engine stands, its best lines
// (each move a button that steps into the line), the variation stepped
// into, and Find mate.

import { h, type VNode } from 'snabbdom';
import type { AnalysisLine, GameState } from '../api';
import { AnalysisCtrl } from '../analysis';
import type { Ctrl } from '../ctrl';
import { MateCtrl } from '../mate';
import { mateView } from './mate';
import { moveText } from './move-text';
import { scoreText } from './score';

/** What the panel says of the engine's work, and whether it is a refusal. */
export function analysisStatus(ctrl: Ctrl): { text: string; error: boolean } {
  const panel = ctrl.analysis;
  if (!panel.on) return { text: '', error: false };
  if (panel.hidden) return { text: 'Paused while the page is hidden.', error: false };
  if (panel.failure) return { text: panel.failure, error: true };
  const analysis = panel.analysis;
  if (!analysis) return { text: 'Asking the engine…', error: false };
  if (analysis.status === 'waiting')
    return { text: `Waiting for an engine: all ${analysis.engines.cap} of the server's are analysing other positions.`, error: false };
  const seconds = (analysis.milliseconds / 1000).toFixed(1);
  const nodes = analysis.nodes.toLocaleString('en');
  const text =
    analysis.lines.length === 0
      ? analysis.nodes === 0
        ? 'The game is over here: nothing to analyse.'
        : `No depth completed in the ${seconds} s allowed.`
      : `Depth ${analysis.depth}, ${nodes} nodes, ${seconds} s${analysis.status === 'done' ? ' (finished)' : '…'}`;
  return { text, error: false };
}

function lineItem(ctrl: Ctrl, state: GameState, line: AnalysisLine, index: number): VNode {
  return h('li.analysis-line', { dataset: { line: String(index) } }, [
    h('span.analysis-score', scoreText(state.variant, line.score)),
    ...line.moves.map((move, step) =>
      h(
        'button',
        {
          attrs: { type: 'button', title: `${move.usi}: show the line up to here` },
          dataset: { step: String(step) },
          on: { click: () => ctrl.analysisStep(index, step) },
        },
        // A line reads `1. e4 d5 2. exd5`: Black's number only on a line's first move.
        step > 0 ? moveText(move).replace(/^\d+\.\.\. /, '') : moveText(move),
      ),
    ),
  ]);
}

function variationPath(ctrl: Ctrl): VNode {
  const variation = ctrl.analysis.variation;
  if (variation.length === 0) return h('div#analysis-variation.analysis-variation', { props: { hidden: true } });
  return h('div#analysis-variation.analysis-variation', { props: { hidden: false } }, [
    h('span', 'Variation: '),
    ...variation.map((move, index) =>
      h(
        'button',
        {
          attrs: { type: 'button', title: 'Back to this move of the variation' },
          class: { current: index === variation.length - 1 },
          on: { click: () => ctrl.analysisBack(index) },
        },
        moveText(move),
      ),
    ),
    h('button#analysis-back', { attrs: { type: 'button' }, on: { click: () => ctrl.analysisBack(-1) } }, 'Back to the game'),
  ]);
}

/** The analysis panel (hidden where analysis is not offered). */
export function analysisPanel(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const allowed = !!state && AnalysisCtrl.allowed(state);
  const status = analysisStatus(ctrl);
  const lines = state && ctrl.analysis.on && !ctrl.analysis.hidden && !ctrl.analysis.failure ? (ctrl.analysis.analysis?.lines ?? []) : [];
  return h('section#analysis-panel.panel.analysis', { props: { hidden: !allowed } }, [
    h('h2', 'Analysis'),
    h('label.analysis-switch', [
      h('input#analyse', {
        attrs: { type: 'checkbox' },
        props: { checked: ctrl.analysis.on },
        on: { change: (event: Event) => ctrl.setAnalysis((event.target as HTMLInputElement).checked) },
      }),
      ' Analyse with the engine',
    ]),
    h('div#analysis-status.analysis-status', { attrs: { 'aria-live': 'polite' }, class: { error: status.error } }, status.text),
    h('ol#analysis-lines.analysis-lines', state ? lines.map((line, index) => lineItem(ctrl, state, line, index)) : []),
    variationPath(ctrl),
    mateView(ctrl, !!state && MateCtrl.allowed(state)),
  ]);
}
