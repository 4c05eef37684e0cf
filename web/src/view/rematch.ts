// The rematch in the result box: the Rematch button, or between two
// machines the offer waiting and its answer (rematch.ts says which).

import { h, type VNode } from 'snabbdom';
import type { GameState } from '../api';
import type { Ctrl } from '../ctrl';
import { t } from '../i18n';
import { rematchPrompt } from '../rematch';

const button = (id: string, label: string, action: () => void): VNode =>
  h(`button#${id}`, { attrs: { type: 'button' }, on: { click: action } }, label);

/** What the result box shows of a rematch of the finished game `state`. */
export function rematchView(ctrl: Ctrl, state: GameState): VNode[] {
  const seating = ctrl.seats();
  if (!seating) return [];
  const rematch = state.rematch;
  const line = (key: string): VNode => h('p#rematch-prompt.rematch-prompt', { attrs: { role: 'status' } }, t(key));
  switch (rematchPrompt(state, seating)) {
    case 'ask': {
      // What the other player did with the last offer, until a new one.
      const dropped = rematch?.declinedBy && !seating.holds(rematch.declinedBy);
      const news = dropped ? [line(rematch!.cancelled ? 'rematch.cancelled' : 'rematch.declined')] : [];
      return [...news, h('div.rematch', [button('result-rematch', t('rematch.ask'), () => ctrl.rematch())])];
    }
    case 'offered':
      return [line('rematch.offered'), h('div.rematch', [button('rematch-cancel', t('rematch.cancel'), () => ctrl.declineRematch())])];
    case 'answer':
      return [
        line('rematch.offeredToYou'),
        h('div.rematch', [
          button('rematch-accept', t('rematch.accept'), () => ctrl.rematch()),
          button('rematch-decline', t('rematch.decline'), () => ctrl.declineRematch()),
        ]),
      ];
    case 'starting':
      return [line('rematch.starting')];
    case 'watch':
      return [h('div.rematch', [button('result-watch-rematch', t('rematch.watch'), () => ctrl.watchRematch())])];
    case 'none':
      return [];
  }
}
