// The new-game form in the top bar: the game (for shogi, a handicap and the
// impasse rule), the opponent, the side, the computer's engine and level,
// the clock.

import { h, type VNode } from 'snabbdom';
import { engineLabel } from './analysis';
import type { Ctrl } from '../ctrl';
import { numberLocale, t } from '../i18n';
import { parseTimeControl, TIME_CONTROLS, type Order, type OpponentChoice } from '../newgame';
import { isVariantId, VARIANT_IDS, type VariantId } from '../variants';
import { select } from './form';
import { levelElo } from '../levels';

/** The standard handicaps by API name ('' for none), as the server names them. */
export const HANDICAPS: string[] = [
  '',
  'lance',
  'right-lance',
  'bishop',
  'rook',
  'rook-lance',
  'two-piece',
  'three-piece',
  'four-piece',
  'five-piece',
  'left-five-piece',
  'six-piece',
  'left-seven-piece',
  'right-seven-piece',
  'eight-piece',
  'ten-piece',
];

/** A time control (`"300+0+10"`) in words. */
export function timeControlWords(value: string): string {
  const control = parseTimeControl(value);
  if (!control) return t('timeControl.none');
  const minutes = (control.initial ?? 0) / 60;
  return control.byoyomi
    ? t('timeControl.byoyomi', { minutes, seconds: control.byoyomi })
    : t('timeControl.increment', { minutes, seconds: control.increment ?? 0 });
}

/** The choice of first or second; in a handicap game the first mover is the giver, and the words say so. */
function orderOptions(order: Order[], handicap: boolean): [string, string][] {
  return order.map((value) => [value, handicap ? t(value === 'first' ? 'form.firstGiver' : 'form.secondReceiver') : t(`form.${value}`)]);
}

/** Brings the board into view when it is not (on a phone the form is under the game). */
function showBoard(): void {
  const play = document.querySelector('.play');
  if (play && play.getBoundingClientRect().top < 0) play.scrollIntoView({ block: 'start' });
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
          void ctrl.newGame().then(showBoard);
        },
      },
    },
    [
      h('label', [
        t('form.game'),
        select('variant', form.variant, VARIANT_IDS.map((id) => [id, t(`variant.${id}`)]), (value) => {
          if (isVariantId(value)) ctrl.chooseVariant(value);
        }),
      ]),
      h('label#handicap-options', { props: { hidden: !shogi } }, [
        t('form.handicap'),
        select('handicap', form.handicap, HANDICAPS.map((name) => [name, t(`handicap.${name || 'none'}`)]), changed((value) => (form.handicap = value)), {
          title: t('form.handicapTitle'),
        }),
      ]),
      h('label#impasse-options', { props: { hidden: !shogi } }, [
        t('form.impasse'),
        select('impasse', String(form.impasse), [['27', t('form.impasse27')], ['24', t('form.impasse24')]], changed((value) => (form.impasse = value === '24' ? 24 : 27)), {
          title: t('form.impasseTitle'),
        }),
      ]),
      h('label', [
        t('form.opponent'),
        select(
          'opponent',
          form.opponent,
          [['human', t('form.human')], ['remote', t('form.remote')], ['computer', t('form.computer')]],
          changed((value) => (form.opponent = value as OpponentChoice)),
        ),
      ]),
      h('span#remote-options.remote-options', { props: { hidden: form.opponent !== 'remote' } }, [
        h('label', [t('form.youPlay'), select('my-side', form.mySide, orderOptions(['first', 'second'], handicap), changed((value) => (form.mySide = value as Order)))]),
      ]),
      h('span#computer-options.computer-options', { props: { hidden: form.opponent !== 'computer' } }, [
        // Offered where the server registered an engine that plays the game.
        h('label#computer-engine-option', { props: { hidden: form.registeredEngines().length === 0 } }, [
          t('form.engine'),
          select(
            'computer-engine',
            form.chosenEngine() ?? 'koma',
            [['koma', t('analysis.komaEngine')], ...form.registeredEngines().map((engine): [string, string] => [engine.name, engineLabel(engine)])],
            (value) => {
              form.engine = value;
              ctrl.formChanged();
            },
            { title: t('form.engineTitle') },
          ),
        ]),
        h('label', [
          t('form.level') + ' ',
          h('input#level', {
            attrs: { name: 'level', type: 'number', min: 1, max: 20 },
            props: { value: form.level, disabled: form.perfectChosen() || !!form.chosenEngine() },
            on: {
              input: (event: Event) => {
                form.level = (event.target as HTMLInputElement).value;
                ctrl.formChanged();
              },
            },
          }),
          ...levelWorth(form.variant, Number(form.level), form.perfectChosen() || !!form.chosenEngine()),
        ]),
        // The perfect player (the solved game) exists for Pawns-Only Chess only.
        h(
          'label#perfect-option',
          {
            attrs: { title: t('form.perfectTitle') },
            props: { hidden: form.variant !== 'pawns' },
          },
          [
            h('input#perfect', {
              attrs: { name: 'perfect', type: 'checkbox' },
              props: { checked: form.perfect, disabled: !!form.chosenEngine() },
              on: {
                change: (event: Event) => {
                  form.perfect = (event.target as HTMLInputElement).checked;
                  ctrl.formChanged();
                },
              },
            }),
            ' ' + t('form.perfect'),
          ],
        ),
        h('label', [
          t('form.itPlays'),
          select('computer-color', form.computerOrder, orderOptions(['second', 'first'], handicap), changed((value) => (form.computerOrder = value as Order))),
        ]),
      ]),
      h('label', [t('form.clock'), select('time-control', form.timeControl, TIME_CONTROLS.map((value) => [value, timeControlWords(value)]), changed((value) => (form.timeControl = value)))]),
      // Highlighted while the board previews another game: this starts it.
      h('button#new-game-button', { attrs: { type: 'submit' }, class: { attention: !!ctrl.preview } }, t('form.newGame')),
    ],
  );
}

/** What the chosen level is worth on Koma's scale, where it was measured (none otherwise). */
function levelWorth(variant: VariantId, level: number, otherPlayer: boolean): VNode[] {
  const elo = otherPlayer ? undefined : levelElo(variant, level);
  if (elo === undefined) return [];
  const locale = numberLocale();
  return [h('span#level-elo.level-elo', { attrs: { title: t('form.levelEloTitle') } }, ' ' + t('form.levelElo', { elo: elo.toLocaleString(locale) }))];
}
