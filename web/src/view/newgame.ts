// The new-game form in the top bar: the game (for shogi, a handicap and the
// impasse rule), the opponent, the side, the computer's level, the clock.

import { h, type VNode } from 'snabbdom';
import type { Ctrl } from '../ctrl';
import { TIME_CONTROLS, type Order, type OpponentChoice } from '../newgame';
import { VARIANT_IDS, VARIANTS } from '../variants';
import { select } from './form';

/** The standard handicaps by API name, in English with their Japanese names. */
export const HANDICAPS: [string, string][] = [
  ['', 'none (even game)'],
  ['lance', 'Lance (香落ち)'],
  ['right-lance', 'Right lance (右香落ち)'],
  ['bishop', 'Bishop (角落ち)'],
  ['rook', 'Rook (飛車落ち)'],
  ['rook-lance', 'Rook and lance (飛香落ち)'],
  ['two-piece', 'Two pieces (二枚落ち)'],
  ['three-piece', 'Three pieces (三枚落ち)'],
  ['four-piece', 'Four pieces (四枚落ち)'],
  ['five-piece', 'Five pieces (五枚落ち)'],
  ['left-five-piece', 'Left five pieces (左五枚落ち)'],
  ['six-piece', 'Six pieces (六枚落ち)'],
  ['left-seven-piece', 'Left seven pieces (左七枚落ち)'],
  ['right-seven-piece', 'Right seven pieces (右七枚落ち)'],
  ['eight-piece', 'Eight pieces (八枚落ち)'],
  ['ten-piece', 'Ten pieces (十枚落ち)'],
];

/** The choice of first or second; in a handicap game the first mover is the giver, and the words say so. */
function orderOptions(order: Order[], handicap: boolean): [string, string][] {
  return order.map((value) => [value, handicap ? (value === 'first' ? 'first (Uwate, the giver)' : 'second (Shitate)') : value]);
}

/** The form; its fields are the form state's. */
export function newGameForm(ctrl: Ctrl): VNode {
  const form = ctrl.form;
  const changed = (set: (value: string) => void) => (value: string) => {
    set(value);
    ctrl.formChanged();
  };
  const shogi = form.variant === 'shogi';
  const handicap = !!form.chosenHandicap();
  return h(
    'form#new-game.new-game',
    {
      on: {
        submit: (event: Event) => {
          event.preventDefault();
          void ctrl.newGame();
        },
      },
    },
    [
      h('label', [
        'Game',
        select('variant', form.variant, VARIANT_IDS.map((id) => [id, VARIANTS[id].title]), changed((value) => (form.variant = value as typeof form.variant))),
      ]),
      h('label#handicap-options', { props: { hidden: !shogi } }, [
        'Handicap',
        select('handicap', form.handicap, HANDICAPS, changed((value) => (form.handicap = value)), {
          title: 'The giver (Uwate) plays without these pieces, takes Gote and moves first',
        }),
      ]),
      h('label#impasse-options', { props: { hidden: !shogi } }, [
        'Impasse',
        select('impasse', String(form.impasse), [['27', '27 points (CSA)'], ['24', '24 points (JSA amateur)']], changed((value) => (form.impasse = value === '24' ? 24 : 27)), {
          title: 'How an impasse declaration (入玉宣言) is judged',
        }),
      ]),
      h('label', [
        'Opponent',
        select(
          'opponent',
          form.opponent,
          [['human', 'A person at this screen'], ['remote', 'A person on another machine'], ['computer', 'The computer']],
          changed((value) => (form.opponent = value as OpponentChoice)),
        ),
      ]),
      h('span#remote-options.remote-options', { props: { hidden: form.opponent !== 'remote' } }, [
        h('label', ['You play', select('my-side', form.mySide, orderOptions(['first', 'second'], handicap), changed((value) => (form.mySide = value as Order)))]),
      ]),
      h('span#computer-options.computer-options', { props: { hidden: form.opponent !== 'computer' } }, [
        h('label', [
          'Level ',
          h('input#level', {
            attrs: { name: 'level', type: 'number', min: 1, max: 20 },
            props: { value: form.level, disabled: form.perfectChosen() },
            on: { input: (event: Event) => (form.level = (event.target as HTMLInputElement).value) },
          }),
        ]),
        // The perfect player (the solved game) exists for Pawns-Only Chess only.
        h(
          'label#perfect-option',
          {
            attrs: { title: 'The solver\'s moves: it never lets a win go, never loses a draw, and resists longest when lost' },
            props: { hidden: form.variant !== 'pawns' },
          },
          [
            h('input#perfect', {
              attrs: { name: 'perfect', type: 'checkbox' },
              props: { checked: form.perfect },
              on: {
                change: (event: Event) => {
                  form.perfect = (event.target as HTMLInputElement).checked;
                  ctrl.formChanged();
                },
              },
            }),
            ' perfect',
          ],
        ),
        h('label', [
          'It plays',
          select('computer-color', form.computerOrder, orderOptions(['second', 'first'], handicap), changed((value) => (form.computerOrder = value as Order))),
        ]),
      ]),
      h('label', ['Clock', select('time-control', form.timeControl, TIME_CONTROLS, changed((value) => (form.timeControl = value)))]),
      h('button#new-game-button', { attrs: { type: 'submit' } }, 'New game'),
    ],
  );
}
