// The lines above the board: whose turn it is, the result, the variation
// shown, notes on the handicap, the impasse and this page's seat, and the
// message of the page or the server.

import { h, type VNode } from 'snabbdom';
import type { GameState } from '../api';
import type { Ctrl, Message } from '../ctrl';
import { impasseNote } from '../declare';
import { hasWords, language, t } from '../i18n';
import { sideName } from '../sides';
import { outcomeText } from './outcome';

/** How many other games' computer moves come first, for the status line. */
export function waitingFor(ahead: number): string {
  return ahead === 0 ? t('status.aheadNone') : t('status.ahead', { count: ahead });
}

/**
 * The words of a message. A refusal is the server's sentence, in English:
 * another language says it in its own words when it knows the refusal's
 * code, and shows the server's sentence as it came otherwise.
 */
export function messageText(message: Message): string {
  if (message.key) return t(message.key, message.params);
  const code = message.code ? `serverError.${message.code}` : undefined;
  if (code && language() !== 'en' && hasWords(code)) return t(code, message.params);
  return message.text ?? '';
}

/**
 * `count` as wide as `total` is, padded with figure spaces (as wide as a
 * digit in tabular figures): a counter stepping from 9 to 10 does not
 * reflow the line.
 */
export function padCount(count: number, total: number): string {
  return String(count).padStart(String(total).length, '\u2007');
}

/** What the status line says while a mate line's step or an analysis variation is shown. */
export function variationText(ctrl: Ctrl): string | undefined {
  const found = ctrl.mate.found;
  if (found && ctrl.mate.step !== undefined && ctrl.mate.variation())
    return t('status.mateStep', { step: padCount(ctrl.mate.step + 1, found.line.length), length: found.line.length });
  const variation = ctrl.analysis.variation;
  if (variation.length === 0) return undefined;
  return t('status.variation', { count: variation.length });
}

/** Whose turn it is in the game, and what the page waits for. */
export function turnText(ctrl: Ctrl, state: GameState): string {
  let text = t('status.toMove', { side: sideName(state.variant, state.turn, state.handicap) }) + (state.check ? t('status.check') : '');
  const opponent = state.opponent;
  const seating = ctrl.seating;
  if (opponent.kind === 'computer')
    text += ctrl.computerThinking()
      ? state.computerWaiting
        ? t('status.computerWaiting', { ahead: waitingFor(state.computerWaiting.ahead) })
        : t('status.computerThinking')
      : opponent.engine
        ? t('status.againstEngine', { engine: opponent.engine })
        : opponent.level === 'perfect'
          ? t('status.againstPerfect')
          : t('status.againstComputer', { level: opponent.level ?? '' });
  else if (state.mode === 'shared' && seating && seating.sides.length === 1)
    text += t(seating.holds(state.turn) ? 'status.yourMove' : 'status.waitingOpponent');
  return text;
}

/** Who this page is in the game: a watcher, or the player of one side of a shared game. */
export function seatNote(ctrl: Ctrl, state: GameState): string | undefined {
  const seating = ctrl.seating;
  if (!seating || seating.watching) return t('status.watching');
  if (state.mode === 'shared' && seating.sides.length === 1) return t('status.youPlay', { side: sideName(state.variant, seating.sides[0], state.handicap) });
  return undefined;
}

/** The status above the board. */
export function statusView(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const message = h(`div#message.message.${ctrl.message.kind}`, messageText(ctrl.message));
  if (!state) return h('div#status.status', { attrs: { role: 'status', 'aria-live': 'polite' } }, [message]);
  if (ctrl.preview)
    return h('div#status.status', { attrs: { role: 'status', 'aria-live': 'polite' } }, [
      h('div.status-line', [h('span.preview', t('status.preview', { game: t(`variantShort.${ctrl.preview}`) }))]),
      h('button#preview-back', { attrs: { type: 'button' }, on: { click: () => ctrl.chooseVariant(state.variant) } }, t('status.previewBack')),
      message,
    ]);
  const shown = ctrl.shown();
  const reviewing = ctrl.reviewing();
  const variation = variationText(ctrl);
  let main: VNode;
  if (variation) main = h('span.variation', variation);
  else if (state.outcome && !reviewing) main = h('span.outcome', outcomeText(state));
  else if (!reviewing) main = h('span.turn', turnText(ctrl, state));
  else main = h('span');
  // One counter: a variation's (the mate line's) replaces the game's.
  const line = h('div.status-line', [
    reviewing && !variation ? t('status.reviewing', { shown: padCount(shown, state.ply), ply: state.ply }) : '',
    main,
  ]);
  const notes: [string, string | undefined][] = [
    [
      'handicap-note',
      state.handicap && state.variant === 'shogi'
        ? t('status.handicapNote', { title: state.handicap.title, japanese: state.handicap.japanese })
        : undefined,
    ],
    ['impasse-note', reviewing ? undefined : impasseNote(state)],
    ['seat-note', seatNote(ctrl, state)],
  ];
  return h('div#status.status', { attrs: { role: 'status', 'aria-live': 'polite' } }, [
    line,
    ...notes.filter(([, text]) => !!text).map(([name, text]) => h(`div#${name}.${name}`, text)),
    message,
  ]);
}
