// The panels beside the board that are not about the engine: the links to a
// game between two machines, records (open and save), and the pieces.

import { h, type VNode } from 'snabbdom';
import type { Ctrl } from '../ctrl';
import { linksOf } from '../invite';
import { dataUri, pawnSvg, shogiPieceSvg } from '../pieces';
import { SAVE_FORMATS } from '../records';
import { VARIANT_IDS, VARIANTS, type PieceSet, type VariantInfo } from '../variants';
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
    h('summary', 'Links to this game'),
    h(
      'div#invite-links.invite-links',
      links.map((link) => {
        const id = `link-${link.kind}${link.side ? `-${link.side}` : ''}`;
        const copied = ctrl.copied?.link === id ? ctrl.copied.text : 'Copy';
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
                attrs: { type: 'button', 'aria-label': `Copy: ${link.label}` },
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
    h('p.note', [
      'Koma serves this machine only (127.0.0.1): from another machine, open the links through an SSH tunnel to the same port (see the guide, docs/GUI.md).',
    ]),
  ]);
}

/** Open a file, paste a record, save the game's record. */
export function recordPanel(ctrl: Ctrl): VNode {
  const record = ctrl.record;
  const formats = ctrl.state ? SAVE_FORMATS[ctrl.state.variant] : [];
  return h('details#record-panel.panel', [
    h('summary', 'Record: load or save'),
    h('div.record-load', [
      h('label.file', [
        'Open a file (KIF, KI2, CSA, SFEN/USI, PGN)',
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
        'or paste a record',
        h('textarea#record-text', {
          attrs: { rows: 4, spellcheck: 'false', placeholder: 'position startpos moves 7g7f 3c3d\nor a KIF, CSA, PGN or SFEN' },
          props: { value: record.text },
          on: { input: (event: Event) => (record.text = (event.target as HTMLTextAreaElement).value) },
        }),
      ]),
      h('div.row', [
        h('label', [
          'Format',
          select('record-format', record.format, [['', 'as it reads'], ['kif', 'KIF'], ['ki2', 'KI2'], ['csa', 'CSA'], ['usi', 'SFEN / USI'], ['pgn', 'PGN']], (value) => {
            record.format = value;
          }),
        ]),
        h('label', [
          'Game',
          select('record-variant', record.variant, [['', 'as it says'], ...VARIANT_IDS.map((id): [string, string] => [id, VARIANTS[id].title.replace(/ \(.*\)$/, '')])], (value) => {
            record.variant = value;
          }),
        ]),
        h('button#record-open', { attrs: { type: 'button' }, on: { click: () => void ctrl.openPasted() } }, 'Open'),
      ]),
    ]),
    h('div.record-save.row', [
      h('label', ['Save as', select('save-format', record.saveFormat, formats, (value) => (record.saveFormat = value))]),
      h('button#save', { attrs: { type: 'button' }, on: { click: () => void ctrl.save() } }, 'Save'),
    ]),
  ]);
}

/** Each piece of the game with its picture, letter and name. */
export function legendEntries(variant: VariantInfo, set: PieceSet): { image: string; text: string }[] {
  if (variant.widget === 'chessground')
    return [
      { image: dataUri(pawnSvg(true)), text: 'pawn (White)' },
      { image: dataUri(pawnSvg(false)), text: 'pawn (Black)' },
    ];
  const baseNames = new Set(Object.values(variant.faces).filter((face) => !face.promoted).map((face) => face.name));
  return Object.values(variant.faces).map((face) => {
    const promotedName = face.promoted && baseNames.has(face.name) ? `promoted ${face.name}` : face.name;
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
    h('summary', 'Pieces'),
    h('label', [
      'Draw pieces with',
      select('piece-set', ctrl.pieceSet, [['kanji', 'kanji'], ['letters', 'Latin letters']], (value) =>
        ctrl.setPieceSet(value === 'letters' ? 'letters' : 'kanji'),
      ),
    ]),
    h(
      'ul#legend.legend',
      variant
        ? legendEntries(variant, ctrl.pieceSet).map((entry) => h('li', [h('span.legend-piece', { style: { backgroundImage: entry.image } }), entry.text]))
        : [],
    ),
  ]);
}
