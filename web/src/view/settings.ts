// The page's settings that are not the game's: the colours of the page and
// of the board, the sounds, and whether premoves are allowed. Each is kept
// by the browser (themes.ts, sound/settings.ts, ctrl.ts). The piece set stays in the Pieces panel beside the
// pieces it draws, and the notation in the Moves panel beside the moves.

import { h, type VNode } from 'snabbdom';
import type { Ctrl } from '../ctrl';
import { t } from '../i18n';
import { BOARD_PALETTES, isBoardPaletteId, THEME_CHOICES, type ThemeChoice } from '../themes';
import { select } from './form';

const isThemeChoice = (text: string): text is ThemeChoice => THEME_CHOICES.some((choice) => choice.id === text);

/** The sounds' mute and volume; nothing where the page has no sound. */
function soundControls(ctrl: Ctrl): VNode[] {
  const sound = ctrl.settings.sound;
  if (!sound) return [];
  return [
    h('label.sound-mute', [
      h('input#sound-muted', {
        attrs: { type: 'checkbox' },
        props: { checked: sound.muted },
        on: { change: (event: Event) => ctrl.settings.setMuted((event.target as HTMLInputElement).checked) },
      }),
      ' ' + t('settings.mute'),
    ]),
    h('label.sound-volume', [
      t('settings.volume') + ' ',
      h('input#sound-volume', {
        attrs: { type: 'range', min: '0', max: '100', step: '5', 'aria-label': t('settings.volume') },
        props: { value: String(sound.volume), disabled: sound.muted },
        on: { change: (event: Event) => ctrl.settings.setVolume(Number((event.target as HTMLInputElement).value)) },
      }),
    ]),
  ];
}

/** The switch for premoves: a move made while the opponent is to move, played on its reply. */
function premoveSwitch(ctrl: Ctrl): VNode {
  return h('label.premoves', { attrs: { title: t('settings.premovesTitle') } }, [
    h('input#premoves', {
      attrs: { type: 'checkbox' },
      props: { checked: ctrl.premovesOn },
      on: { change: (event: Event) => ctrl.setPremovesOn((event.target as HTMLInputElement).checked) },
    }),
    ' ' + t('settings.premoves'),
  ]);
}

/** The Settings panel: page theme, board colours, sound, premoves. */
export function settingsPanel(ctrl: Ctrl): VNode {
  const theme = ctrl.settings.theme;
  return h('details#settings-panel.panel', [
    h('summary', t('settings.title')),
    h('label', [
      t('settings.theme') + ' ',
      select(
        'theme',
        theme.theme,
        THEME_CHOICES.map((choice) => [choice.id, t(`settings.themes.${choice.id}`)]),
        (value) => {
          if (isThemeChoice(value)) ctrl.settings.setTheme({ ...theme, theme: value });
        },
      ),
    ]),
    h('label', [
      t('settings.board') + ' ',
      select(
        'board-colours',
        theme.board,
        BOARD_PALETTES.map((palette) => [palette.id, t(`settings.boards.${palette.id}`)]),
        (value) => {
          if (isBoardPaletteId(value)) ctrl.settings.setTheme({ ...theme, board: value });
        },
      ),
    ]),
    ...soundControls(ctrl),
    premoveSwitch(ctrl),
  ]);
}
