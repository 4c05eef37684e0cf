// The Analysis panel: the switch, where the engine stands, its best lines
// (each move a button that steps into the line), the variation stepped
// into, and Find mate.

import { h, type VNode } from 'snabbdom';
import type { AnalysisLine, GameState } from '../api';
import { AnalysisCtrl, kiloNodesPerSecond, MAX_LINES, MIN_LINES } from '../analysis';
import type { Ctrl } from '../ctrl';
import { language, t } from '../i18n';
import { select } from './form';
import { MateCtrl } from '../mate';
import { mateView } from './mate';
import { moveText } from './move-text';
import { scoreText } from './score';

/** The search's nodes, seconds and speed (kN/s) written as the page's language writes numbers. */
export function searchFigures(nodes: number, milliseconds: number): { nodes: string; seconds: string; speed?: string } {
  const locale = language() === 'ja' ? 'ja-JP' : 'en-US';
  const perSecond = kiloNodesPerSecond(nodes, milliseconds);
  return {
    nodes: nodes.toLocaleString(locale),
    seconds: (milliseconds / 1000).toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    speed: perSecond === undefined ? undefined : perSecond.toLocaleString(locale, { maximumFractionDigits: perSecond < 10 ? 1 : 0 }),
  };
}

/** The choice of how many lines the engine shows (MultiPV). */
function linesChoice(ctrl: Ctrl): VNode {
  const options: [string, string][] = [];
  for (let n = MIN_LINES; n <= MAX_LINES; n++) options.push([String(n), String(n)]);
  return h('label.analysis-lines-choice', [
    t('analysis.lines'),
    select('analysis-multipv', String(ctrl.analysis.lines), options, (value) => ctrl.setAnalysisLines(Number(value)), {
      title: t('analysis.linesTitle'),
    }),
  ]);
}

/** What the panel says of the engine's work, and whether it is a refusal. */
export function analysisStatus(ctrl: Ctrl): { text: string; error: boolean } {
  const panel = ctrl.analysis;
  if (!panel.on) return { text: '', error: false };
  if (panel.hidden) return { text: t('analysis.paused'), error: false };
  // The server's refusal, in English.
  if (panel.failure) return { text: panel.failure, error: true };
  const analysis = panel.analysis;
  if (!analysis) return { text: t('analysis.asking'), error: false };
  if (analysis.status === 'waiting') return { text: t('analysis.waiting', { cap: analysis.engines.cap }), error: false };
  const { seconds, nodes, speed } = searchFigures(analysis.nodes, analysis.milliseconds);
  const text =
    analysis.lines.length === 0
      ? analysis.nodes === 0
        ? t('analysis.over')
        : t('analysis.noDepth', { seconds })
      : t('analysis.depth', { depth: analysis.depth, nodes, seconds }) +
        (speed ? t('analysis.speed', { speed }) : '') +
        t(analysis.status === 'done' ? 'analysis.finished' : 'analysis.going');
  return { text, error: false };
}

/**
 * One line of the engine: its score, a button that shows the whole line or
 * one row of it (a line runs to some twenty moves, which would push the
 * panel below the window), and its moves.
 */
function lineItem(ctrl: Ctrl, state: GameState, line: AnalysisLine, index: number): VNode {
  const open = ctrl.analysis.openLines.has(index);
  return h(
    'li.analysis-line',
    {
      dataset: { line: String(index) },
      class: { open, hovered: ctrl.analysis.hovered === index },
      on: { mouseenter: () => ctrl.hoverAnalysisLine(index), mouseleave: () => ctrl.hoverAnalysisLine(undefined) },
    },
    [
      h('span.analysis-score', scoreText(state.variant, line.score)),
      h(
        'button.analysis-more',
        {
          attrs: { type: 'button', title: t(open ? 'analysis.lessTitle' : 'analysis.moreTitle'), 'aria-expanded': String(open) },
          on: { click: () => ctrl.toggleAnalysisLine(index) },
        },
        open ? '−' : '+',
      ),
      ...line.moves.map((move, step) =>
        h(
          'button',
          {
            attrs: { type: 'button', title: t('analysis.stepTitle', { usi: move.usi }) },
            dataset: { step: String(step) },
            on: { click: () => ctrl.analysisStep(index, step) },
          },
          // A line reads `1. e4 d5 2. exd5`: Black's number only on a line's first move.
          step > 0 ? moveText(move).replace(/^\d+\.\.\. /, '') : moveText(move),
        ),
      ),
    ],
  );
}

function variationPath(ctrl: Ctrl): VNode {
  const variation = ctrl.analysis.variation;
  if (variation.length === 0) return h('div#analysis-variation.analysis-variation', { props: { hidden: true } });
  return h('div#analysis-variation.analysis-variation', { props: { hidden: false } }, [
    h('span', t('analysis.variation')),
    ...variation.map((move, index) =>
      h(
        'button',
        {
          attrs: { type: 'button', title: t('analysis.backToMove') },
          class: { current: index === variation.length - 1 },
          on: { click: () => ctrl.analysisBack(index) },
        },
        moveText(move),
      ),
    ),
    h('button#analysis-back', { attrs: { type: 'button' }, on: { click: () => ctrl.analysisBack(-1) } }, t('analysis.backToGame')),
  ]);
}

/** The analysis panel (hidden where analysis is not offered). */
export function analysisPanel(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const allowed = !!state && AnalysisCtrl.allowed(state);
  const status = analysisStatus(ctrl);
  const lines = state && ctrl.analysis.on && !ctrl.analysis.hidden && !ctrl.analysis.failure ? (ctrl.analysis.analysis?.lines ?? []) : [];
  return h('section#analysis-panel.panel.analysis', { props: { hidden: !allowed } }, [
    h('h2', t('analysis.title')),
    h('label.analysis-switch', [
      h('input#analyse', {
        attrs: { type: 'checkbox', title: ctrl.learn.active() ? t('analysis.learning') : '' },
        // Learn from your mistakes uses the connection's one analysis meanwhile.
        props: { checked: ctrl.analysis.on, disabled: ctrl.learn.active() },
        on: { change: (event: Event) => ctrl.setAnalysis((event.target as HTMLInputElement).checked) },
      }),
      t('analysis.switch'),
    ]),
    linesChoice(ctrl),
    h('div#analysis-status.analysis-status', { attrs: { 'aria-live': 'polite' }, class: { error: status.error } }, status.text),
    h('ol#analysis-lines.analysis-lines', state ? lines.map((line, index) => lineItem(ctrl, state, line, index)) : []),
    variationPath(ctrl),
    mateView(ctrl, !!state && MateCtrl.allowed(state)),
  ]);
}
