// Under the board: the move buttons (« ‹ › »), Flip, Undo (or Ask to take
// back), Declare and Resign, and a takeback request with its answer.

import { h, type VNode } from 'snabbdom';
import type { GameState } from '../api';
import type { Ctrl } from '../ctrl';
import { t } from '../i18n';
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
  if (!impasse || seating.watching) return button('declare', t('controls.declare'), t('controls.declareTitle'), () => ctrl.declare(), { hidden: true });
  const computerToMove = state.opponent.kind === 'computer' && state.opponent.color === state.turn;
  const ours = seating.holds(state.turn) && !computerToMove;
  const rule = impasse.rule;
  const side = sideName(state.variant, state.turn, state.handicap);
  let title: string;
  if (state.outcome) title = t('controls.declareOver', { rule });
  else if (!ours) title = t('controls.declareNotYours', { rule });
  else if (impasse.declaration === 'win') title = t('controls.declareWin', { side, rule });
  else if (impasse.declaration === 'draw') title = t('controls.declareDraw', { rule });
  // Why not is the server's sentence, in English.
  else title = t('controls.declareInvalid', { rule, side, why: impasse.shortfall ?? t('controls.notNow') });
  const vnode = button('declare', t('controls.declare'), title, () => ctrl.declare(), {
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
    const title = t(state.takeback ? 'controls.takebackAsked' : 'controls.askTakebackTitle');
    return button('undo', t('controls.askTakeback'), title, undo, {
      disabled: !!state.outcome || !!state.takeback || !hasMove,
      hidden: seating.watching,
    });
  }
  // While the computer thinks, its reply is on the way: Undo waits for it
  // (then takes back both moves), so that no reply meets a changed game.
  const title = t(state.opponent.kind === 'computer' ? 'controls.undoComputerTitle' : 'controls.undoTitle');
  return button('undo', t('controls.undo'), title, undo, {
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
  const actions: VNode[] = [button('flip', t('controls.flip'), t('controls.flipTitle'), () => ctrl.flip())];
  if (state && seating) {
    const resignTitle = t(state.mode === 'shared' || state.opponent.kind === 'computer' ? 'controls.resignYou' : 'controls.resignToMove');
    actions.push(
      undoButton(ctrl, state, seating),
      declareButton(ctrl, state, seating),
      button('resign', t('controls.resign'), resignTitle, () => ctrl.resign(), { disabled: !!state.outcome, hidden: seating.watching }),
    );
  }
  // While the board previews another game, the game's own actions wait: they would act unseen.
  if (ctrl.preview) for (const action of actions) action.data!.props = { ...action.data!.props, disabled: true };
  return h('div.controls', [
    h('span.nav', [
      nav('first', '«', t('controls.firstTitle'), t('controls.first'), () => ctrl.goTo(0), shown === 0),
      nav('previous', '‹', t('controls.previousTitle'), t('controls.previous'), () => ctrl.goTo(ctrl.shown() - 1), shown === 0),
      nav('next', '›', t('controls.nextTitle'), t('controls.next'), () => ctrl.goTo(ctrl.shown() + 1), !reviewing),
      nav('last', '»', t('controls.lastTitle'), t('controls.last'), () => ctrl.goTo(Infinity), !reviewing),
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
      h('span.takeback-text', t('takeback.asks', { side: askerName })),
      button('takeback-accept', t('takeback.accept'), t('takeback.acceptTitle'), () => ctrl.answerTakeback(false)),
      button('takeback-decline', t('takeback.decline'), t('takeback.declineTitle'), () => ctrl.answerTakeback(true)),
    ]);
  if (seating.holds(asker)) return box([h('span.takeback-text', t('takeback.waiting', { other }))]);
  return box([h('span.takeback-text', t('takeback.watching', { side: askerName, other }))]);
}
