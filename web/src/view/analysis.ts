// The Analysis panel: the switch, the engine (and a second one beside it),
// where each stands, their best lines (each move a button that steps into
// the line), the variation stepped into, and Find mate.

import { h, type On, type VNode } from 'snabbdom';
import type { Analysis, AnalysisLine, EngineInfo, GameState } from '../api';
import { AnalysisCtrl, BUILT_IN, kiloNodesPerSecond, MAX_LINES, MIN_LINES } from '../analysis';
import { colorsOf, sideName } from '../sides';
import type { Ctrl } from '../ctrl';
import { numberLocale, t } from '../i18n';
import { select } from './form';
import { MateCtrl } from '../mate';
import { mateView } from './mate';
import { moveText } from './move-text';
import { barText, scoreText } from './score';

/** The search's nodes, seconds and speed (kN/s) written as the page's language writes numbers. */
export function searchFigures(nodes: number, milliseconds: number): { nodes: string; seconds: string; speed?: string } {
  const locale = numberLocale();
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

/** An engine's name as the choices show it: Koma's own, or a registered one with the name it gives itself. */
export function engineLabel(engine: EngineInfo): string {
  if (engine.name === BUILT_IN) return t('analysis.komaEngine');
  return engine.idName ? `${engine.name} (${engine.idName})` : engine.name;
}

/** The choice of engine, and of a second one beside it, where the server has more than Koma's own for this game. */
function engineChoices(ctrl: Ctrl, state: GameState): VNode[] {
  const engines = ctrl.analysis.enginesFor(state.variant);
  if (engines.length < 2) return [];
  const first = ctrl.analysis.engineFor(state.variant);
  const options: [string, string][] = engines.map((engine) => [engine.name, engineLabel(engine)]);
  const others: [string, string][] = [['', t('analysis.noSecond')], ...options.filter(([name]) => name !== first)];
  return [
    h('label.analysis-lines-choice', [
      t('analysis.engine'),
      select('analysis-engine', first, options, (value) => ctrl.setAnalysisEngine(value), { title: t('analysis.engineTitle') }),
    ]),
    h('label.analysis-lines-choice', [
      t('analysis.second'),
      select('analysis-second-engine', ctrl.analysis.secondFor(state.variant) ?? '', others, (value) => ctrl.setAnalysisSecond(value), {
        title: t('analysis.secondTitle'),
      }),
    ]),
  ];
}

/** What the panel says of the engine's work, and whether it is a refusal. */
export function analysisStatus(ctrl: Ctrl): { text: string; error: boolean } {
  return engineStatus(ctrl.analysis, ctrl.analysis.failure, ctrl.analysis.analysis);
}

/** What a panel says of one engine's work (`analysis` and `failure` its own), and whether it is a refusal. */
function engineStatus(panel: AnalysisCtrl, failure: string | undefined, analysis: Analysis | undefined): { text: string; error: boolean } {
  if (!panel.on) return { text: '', error: false };
  if (panel.hidden) return { text: t('analysis.paused'), error: false };
  // The server's refusal, in English.
  if (failure) return { text: failure, error: true };
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
function lineItem(ctrl: Ctrl, state: GameState, line: AnalysisLine, index: number, source: 'main' | 'second' = 'main'): VNode {
  // The second engine's lines open apart from the first's; only the first's show an arrow.
  const key = source === 'main' ? index : SECOND_LINES + index;
  const open = ctrl.analysis.openLines.has(key);
  const hover: On = source === 'main' ? { mouseenter: () => ctrl.hoverAnalysisLine(index), mouseleave: () => ctrl.hoverAnalysisLine(undefined) } : {};
  return h(
    'li.analysis-line',
    {
      dataset: { line: String(index) },
      class: { open, hovered: source === 'main' && ctrl.analysis.hovered === index },
      on: hover,
    },
    [
      h('span.analysis-score', scoreText(state.variant, line.score)),
      h(
        'button.analysis-more',
        {
          attrs: { type: 'button', title: t(open ? 'analysis.lessTitle' : 'analysis.moreTitle'), 'aria-expanded': String(open) },
          on: { click: () => ctrl.toggleAnalysisLine(key) },
        },
        open ? '−' : '+',
      ),
      ...line.moves.map((move, step) =>
        h(
          'button',
          {
            attrs: { type: 'button', title: t('analysis.stepTitle', { usi: move.usi }) },
            dataset: { step: String(step) },
            on: { click: () => ctrl.analysisStep(index, step, source) },
          },
          // A line reads `1. e4 d5 2. exd5`: Black's number only on a line's first move.
          step > 0 ? moveText(move).replace(/^\d+\.\.\. /, '') : moveText(move),
        ),
      ),
    ],
  );
}

/** The keys of the second engine's open lines start here, apart from the first's. */
const SECOND_LINES = 100;

/** The second engine's part: its name, a bar of its evaluation, where it stands and its lines. */
function secondPanel(ctrl: Ctrl, state: GameState): VNode {
  const panel = ctrl.analysis;
  const name = panel.secondFor(state.variant);
  if (!name || !panel.on) return h('section#analysis-second.analysis-second', { props: { hidden: true } });
  const status = engineStatus(panel, panel.secondFailure, panel.secondAnalysis);
  const lines = panel.hidden || panel.secondFailure ? [] : (panel.secondAnalysis?.lines ?? []);
  const best = lines[0];
  const [first] = colorsOf(state.variant);
  const share = best ? best.score.expected : 0.5;
  const title = best ? t('analysis.secondBar', { side: sideName(state.variant, first), percent: Math.round(share * 100) }) : '';
  return h('section#analysis-second.analysis-second', { props: { hidden: false } }, [
    h('h3', name),
    h('div.eval-mini', { attrs: { title }, dataset: { share: share.toFixed(3) } }, [
      h('div.eval-mini-fill', { style: { width: `${(share * 100).toFixed(1)}%` } }),
      h('span.eval-mini-text', best ? barText(state.variant, best.score) : ''),
    ]),
    h('div.analysis-status', { attrs: { 'aria-live': 'polite' }, class: { error: status.error } }, status.text),
    h('ol.analysis-lines', lines.map((line, index) => lineItem(ctrl, state, line, index, 'second'))),
  ]);
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
    ...(state && allowed ? engineChoices(ctrl, state) : []),
    h('div#analysis-status.analysis-status', { attrs: { 'aria-live': 'polite' }, class: { error: status.error } }, status.text),
    h('ol#analysis-lines.analysis-lines', state ? lines.map((line, index) => lineItem(ctrl, state, line, index)) : []),
    state ? secondPanel(ctrl, state) : h('section#analysis-second.analysis-second', { props: { hidden: true } }),
    variationPath(ctrl),
    mateView(ctrl, !!state && MateCtrl.allowed(state)),
  ]);
}
