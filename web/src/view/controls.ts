// Under the board: the move buttons (« ‹ › »), Flip, Undo (or Ask to take
// back), Declare and Resign, and a takeback request with its answer.

import { h, type VNode } from 'snabbdom';
import type { GameState } from '../api';
import type { Ctrl } from '../ctrl';
import type { Seating } from '../seats';
import { opposite, sideName } from '../sides';

/** A button; `id` names it for the page's tests and styles. */
export function button(id: string, text: string, title: string, action: () => void, options: { disabled?: boolean; hidden?: boolean } = {}): VNode {
  return h(
    `button#${id}`,
    {
      attrs: { type: 'button', title },
      props: { disabled: !!options.disabled, hidden: !!options.hidden },
      on: { click: action },
    },
    text,
  );
}

/** The Declare button (shogi): enabled and explained for this page's seats. */
export function declareButton(ctrl: Ctrl, state: GameState, seating: Seating): VNode {
  const impasse = state.impasse;
  if (!impasse || seating.watching) return button('declare', 'Declare', 'Declare impasse (入玉宣言)', () => ctrl.declare(), { hidden: true });
  const computerToMove = state.opponent.kind === 'computer' && state.opponent.color === state.turn;
  const ours = seating.holds(state.turn) && !computerToMove;
  const rule = `the ${impasse.rule}-point rule`;
  const side = sideName(state.variant, state.turn, state.handicap);
  let title: string;
  if (state.outcome) title = `Impasse declaration (${rule}): the game is over`;
  else if (!ours) title = `Impasse declaration (${rule}): only the side to move declares`;
  else if (impasse.declaration === 'win') title = `Declare impasse (入玉宣言): ${side} wins under ${rule}`;
  else if (impasse.declaration === 'draw') title = `Declare impasse (入玉宣言): a draw (持将棋) under ${rule}`;
  else title = `Impasse declaration (${rule}) not valid for ${side}: ${impasse.shortfall ?? 'not now'}`;
  const vnode = button('declare', 'Declare', title, () => ctrl.declare(), {
    disabled: !!state.outcome || !ours || !impasse.declaration,
  });
  vnode.data!.dataset = { declaration: impasse.declaration ?? '' };
  return vnode;
}

/** Undo as this page may use it: Ask to take back on two machines; waiting while the computer thinks. */
function undoButton(ctrl: Ctrl, state: GameState, seating: Seating): VNode {
  const undo = () => ctrl.undo();
  if (state.mode === 'shared') {
    const seat = seating.takebackSeat(state);
    const hasMove = !!seat && state.moves.some((move) => move.color === seat);
    const title = state.takeback ? 'A takeback was asked: see the answer under the board' : 'Ask the other player to take back your last move';
    return button('undo', 'Ask to take back', title, undo, {
      disabled: !!state.outcome || !!state.takeback || !hasMove,
      hidden: seating.watching,
    });
  }
  // While the computer thinks, its reply is on the way: Undo waits for it
  // (then takes back both moves), so that no reply meets a changed game.
  const title = state.opponent.kind === 'computer' ? "Take back your last move and the computer's reply" : 'Take back the last move';
  return button('undo', 'Undo', title, undo, {
    disabled: (state.ply === 0 && !state.outcome) || ctrl.computerThinking(),
    hidden: seating.watching,
  });
}

/** The buttons under the board. */
export function controlsView(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const seating = ctrl.seats();
  const shown = ctrl.shown();
  const reviewing = ctrl.reviewing();
  const nav = (id: string, text: string, title: string, label: string, action: () => void, disabled: boolean): VNode =>
    h(`button#${id}`, { attrs: { type: 'button', title, 'aria-label': label }, props: { disabled }, on: { click: action } }, text);
  const actions: VNode[] = [button('flip', 'Flip', 'Turn the board around (f)', () => ctrl.flip())];
  if (state && seating) {
    const resignTitle = state.mode === 'shared' || state.opponent.kind === 'computer' ? 'You resign' : 'The player to move resigns';
    actions.push(
      undoButton(ctrl, state, seating),
      declareButton(ctrl, state, seating),
      button('resign', 'Resign', resignTitle, () => ctrl.resign(), { disabled: !!state.outcome, hidden: seating.watching }),
    );
  }
  return h('div.controls', [
    h('span.nav', [
      nav('first', '«', 'First position (Home)', 'First position', () => ctrl.goTo(0), shown === 0),
      nav('previous', '‹', 'Previous move (←)', 'Previous move', () => ctrl.goTo(ctrl.shown() - 1), shown === 0),
      nav('next', '›', 'Next move (→)', 'Next move', () => ctrl.goTo(ctrl.shown() + 1), !reviewing),
      nav('last', '»', 'Last position (End)', 'Last position', () => ctrl.goTo(Infinity), !reviewing),
    ]),
    h('span.actions', actions),
  ]);
}

/** A takeback request in a game between two machines, with Accept and Decline for the player asked. */
export function takebackView(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const seating = ctrl.seats();
  const asker = state && seating && state.mode === 'shared' && !state.outcome ? state.takeback : null;
  const box = (children: VNode[]): VNode =>
    h('div#takeback.takeback', { attrs: { 'aria-live': 'polite' }, props: { hidden: !asker }, dataset: { asker: asker ?? '' } }, children);
  if (!state || !seating || !asker) return box([]);
  const answering = seating.sides.some((side) => side !== asker);
  const other = sideName(state.variant, opposite(state.variant, asker), state.handicap);
  const askerName = sideName(state.variant, asker, state.handicap);
  if (answering)
    return box([
      h('span.takeback-text', `${askerName} asks to take back a move.`),
      button('takeback-accept', 'Accept', 'Take the move back', () => ctrl.answerTakeback(false)),
      button('takeback-decline', 'Decline', 'Keep the move: the game goes on', () => ctrl.answerTakeback(true)),
    ]);
  if (seating.holds(asker)) return box([h('span.takeback-text', `You asked to take back your move: waiting for ${other} to answer.`)]);
  return box([h('span.takeback-text', `${askerName} asks to take back a move; ${other} has not answered yet.`)]);
}
