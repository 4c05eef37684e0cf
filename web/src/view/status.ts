// The lines above the board: whose turn it is, the result, the variation
// shown, notes on the handicap, the impasse and this page's seat, and the
// message of the page or the server.

import { h, type VNode } from 'snabbdom';
import type { GameState } from '../api';
import type { Ctrl } from '../ctrl';
import { impasseNote } from '../declare';
import { sideName } from '../sides';
import { inPlayersWords } from '../variants';

/** How many other games' computer moves come first, for the status line. */
export function waitingFor(ahead: number): string {
  if (ahead === 0) return 'it is next';
  return ahead === 1 ? '1 game before it' : `${ahead} games before it`;
}

/** What the status line says while a mate line's step or an analysis variation is shown. */
export function variationText(ctrl: Ctrl): string | undefined {
  const found = ctrl.mate.found;
  if (found && ctrl.mate.step !== undefined && ctrl.mate.variation())
    return `Mate line, move ${ctrl.mate.step + 1} of ${found.line.length}: the game itself is unchanged ("Back to the game" returns to it).`;
  const variation = ctrl.analysis.variation;
  if (variation.length === 0) return undefined;
  return `Variation, ${variation.length} move${variation.length === 1 ? '' : 's'} from the game: the game itself is unchanged ("Back to the game" returns to it).`;
}

/** Whose turn it is in the game, and what the page waits for. */
export function turnText(ctrl: Ctrl, state: GameState): string {
  let text = `${sideName(state.variant, state.turn, state.handicap)} to move${state.check ? ' — check!' : ''}`;
  const opponent = state.opponent;
  const seating = ctrl.seating;
  if (opponent.kind === 'computer')
    text += ctrl.computerThinking()
      ? state.computerWaiting
        ? ` (the computer is waiting for an engine: ${waitingFor(state.computerWaiting.ahead)})`
        : ' (the computer is thinking)'
      : opponent.level === 'perfect'
        ? ': your move against the perfect player'
        : `: your move against the computer (level ${opponent.level})`;
  else if (state.mode === 'shared' && seating && seating.sides.length === 1)
    text += seating.holds(state.turn) ? ': your move' : ': waiting for your opponent';
  return text;
}

/** Who this page is in the game: a watcher, or the player of one side of a shared game. */
export function seatNote(ctrl: Ctrl, state: GameState): string | undefined {
  const seating = ctrl.seating;
  if (!seating || seating.watching) return 'You are watching this game: only its players can move.';
  if (state.mode === 'shared' && seating.sides.length === 1) return `You play ${sideName(state.variant, seating.sides[0], state.handicap)}.`;
  return undefined;
}

/** The status above the board. */
export function statusView(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const message = h(`div#message.message.${ctrl.message.kind}`, ctrl.message.text);
  if (!state) return h('div#status.status', { attrs: { role: 'status', 'aria-live': 'polite' } }, [message]);
  const shown = ctrl.shown();
  const reviewing = ctrl.reviewing();
  const variation = variationText(ctrl);
  let main: VNode;
  if (variation) main = h('span.variation', variation);
  else if (state.outcome && !reviewing) main = h('span.outcome', inPlayersWords(state.variant, state.outcome.message, state.handicap));
  else if (!reviewing) main = h('span.turn', turnText(ctrl, state));
  else main = h('span');
  const line = h('div.status-line', [
    reviewing ? `Move ${shown} of ${state.ply} (reviewing: › or → steps on, » returns to the game). ` : '',
    main,
  ]);
  const notes: [string, string | undefined][] = [
    [
      'handicap-note',
      state.handicap && state.variant === 'shogi'
        ? `${state.handicap.title} handicap (${state.handicap.japanese}): Uwate ☖ gives it and moves first; Shitate ☗ receives.`
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
