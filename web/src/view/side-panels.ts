// The panels beside the board that are not about the engine: the links to a
// game between two machines, records (open and save), and the pieces.

import { h, type VNode } from 'snabbdom';
import type { Ctrl } from '../ctrl';
import { t } from '../i18n';
import { linksOf } from '../invite';
import { dataUri, pawnSvg, shogiPieceSvg } from '../pieces';
import { SAVE_FORMATS } from '../records';
import { isPieceSet, PIECE_SETS, VARIANT_IDS, type PieceSet, type VariantInfo } from '../variants';
import { select } from './form';

/** Copies `text`, through the clipboard API or, failing that, from the selected field. */
async function copy(text: string, input: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!input) return false;
    input.focus();
    input.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

/** The links of a shared game (hidden for other games). */
export function invitePanel(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const seating = ctrl.seats();
  const shared = !!state && !!seating && state.mode === 'shared';
  const links = shared ? linksOf(state, seating) : [];
  return h('details#invite.panel.invite', { attrs: { open: true }, props: { hidden: !shared } }, [
    h('summary', t('invite.title')),
    h(
      'div#invite-links.invite-links',
      links.map((link) => {
        const id = `link-${link.kind}${link.side ? `-${link.side}` : ''}`;
        const copied = ctrl.copied?.link === id ? t(ctrl.copied.done ? 'invite.copied' : 'invite.selectCopy') : t('invite.copy');
        return h('div.invite-link', { key: id, dataset: { kind: link.kind } }, [
          h('label', { attrs: { for: id } }, link.label),
          h('div.invite-field', [
            h(`input#${id}`, {
              attrs: { type: 'text', readonly: true, spellcheck: 'false' },
              props: { value: link.url },
              on: { focus: (event: FocusEvent) => (event.target as HTMLInputElement).select() },
            }),
            h(
              'button',
              {
                attrs: { type: 'button', 'aria-label': t('invite.copyLabel', { label: link.label }) },
                on: {
                  click: () => {
                    const input = document.getElementById(id) as HTMLInputElement | null;
                    void copy(link.url, input).then((done) => ctrl.reportCopy(id, done));
                  },
                },
              },
              copied,
            ),
          ]),
        ]);
      }),
    ),
    h('p.note', t('invite.note')),
  ]);
}

/** Open a file, paste a record, save the game's record. */
export function recordPanel(ctrl: Ctrl): VNode {
  const record = ctrl.record;
  const formats = ctrl.state ? SAVE_FORMATS[ctrl.state.variant] : [];
  return h('details#record-panel.panel', [
    h('summary', t('record.title')),
    h('div.record-load', [
      h('label.file', [
        t('record.openFile'),
        h('input#record-file', {
          attrs: { type: 'file', accept: '.kif,.kifu,.ki2,.csa,.usi,.sfen,.pgn,.txt,text/plain' },
          on: {
            change: (event: Event) => {
              const input = event.target as HTMLInputElement;
              const file = input.files?.[0];
              if (file) void ctrl.openFile(file).finally(() => (input.value = ''));
            },
          },
        }),
      ]),
      h('label', [
        t('record.paste'),
        h('textarea#record-text', {
          attrs: { rows: 4, spellcheck: 'false', placeholder: t('record.placeholder') },
          props: { value: record.text },
          on: { input: (event: Event) => (record.text = (event.target as HTMLTextAreaElement).value) },
        }),
      ]),
      h('div.row', [
        h('label', [
          t('record.format'),
          select('record-format', record.format, [['', t('record.asItReads')], ['kif', 'KIF'], ['ki2', 'KI2'], ['csa', 'CSA'], ['usi', 'SFEN / USI'], ['pgn', 'PGN']], (value) => {
            record.format = value;
          }),
        ]),
        h('label', [
          t('record.game'),
          select('record-variant', record.variant, [['', t('record.asItSays')], ...VARIANT_IDS.map((id): [string, string] => [id, t(`variantShort.${id}`)])], (value) => {
            record.variant = value;
          }),
        ]),
        h('button#record-open', { attrs: { type: 'button' }, on: { click: () => void ctrl.openPasted() } }, t('record.open')),
      ]),
    ]),
    h('div.record-save.row', [
      h('label', [t('record.saveAs'), select('save-format', record.saveFormat, formats, (value) => (record.saveFormat = value))]),
      h('button#save', { attrs: { type: 'button' }, on: { click: () => void ctrl.save() } }, t('record.save')),
    ]),
  ]);
}

/** Each piece of the game with its picture, letter and name. */
export function legendEntries(variant: VariantInfo, set: PieceSet): { image: string; text: string }[] {
  if (variant.widget === 'chessground')
    return [
      { image: dataUri(pawnSvg(true)), text: t('pieces.pawnWhite') },
      { image: dataUri(pawnSvg(false)), text: t('pieces.pawnBlack') },
    ];
  const baseNames = new Set(Object.values(variant.faces).filter((face) => !face.promoted).map((face) => face.name));
  return Object.values(variant.faces).map((face) => {
    // The faces are named in English (variants.ts): the message files name them by that word.
    const name = t(`pieces.${face.name}`);
    const promotedName = face.promoted && baseNames.has(face.name) ? t('pieces.promoted', { name }) : name;
    return {
      image: dataUri(shogiPieceSvg(face, set, false, variant.letterOnKanji)),
      text: `${face.promoted ? '+' : ''}${face.letter} ${face.kanji} ${promotedName}`,
    };
  });
}

/** The piece set chosen and the list of pieces. */
export function piecesPanel(ctrl: Ctrl): VNode {
  const variant = ctrl.variantInfo();
  return h('details#pieces-panel.panel', [
    h('summary', t('pieces.title')),
    h('label', [
      t('pieces.drawWith'),
      select(
        'piece-set',
        ctrl.settings.pieceSet,
        PIECE_SETS.map((set) => [set.id, t(`pieces.sets.${set.id}`)]),
        (value) => {
          if (isPieceSet(value)) ctrl.settings.setPieceSet(value);
        },
      ),
    ]),
    h(
      'ul#legend.legend',
      variant
        ? legendEntries(variant, ctrl.settings.pieceSet).map((entry) => h('li', [h('span.legend-piece', { style: { backgroundImage: entry.image } }), entry.text]))
        : [],
    ),
  ]);
}
