// What a record says about its game, shown above its moves: the players,
// the event and place, the date, the time control, the handicap and the
// opening, as the server reads them from the record (`headers`, see
// docs/API.md). A field the record leaves out is not shown; a game that
// says nothing shows nothing.

import { h, type VNode } from 'snabbdom';
import type { GameState } from '../api';
import { language, t } from '../i18n';
import { colorsOf, sideName } from '../sides';

/** The header fields shown, in order, each with its label's key. */
const FIELDS: [string, string][] = [
  ['event', 'info.event'],
  ['site', 'info.site'],
  ['startTime', 'info.date'],
  ['timeControl', 'info.timeControl'],
  ['opening', 'info.opening'],
];

/** A header's text, if the record gave one. */
function field(state: GameState, key: string): string | undefined {
  const value = state.headers[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The rows of the game's details: [label, text]. */
export function gameInfoRows(state: GameState): [string, string][] {
  const rows: [string, string][] = [];
  for (const color of colorsOf(state.variant)) {
    const name = field(state, color) ?? field(state, color === 'white' ? 'sente' : color === 'black' ? 'gote' : color);
    if (name) rows.push([sideName(state.variant, color, state.handicap), name]);
  }
  if (state.handicap) rows.push([t('info.handicap'), language() === 'ja' ? state.handicap.japanese : state.handicap.title]);
  for (const [key, label] of FIELDS) {
    const text = field(state, key);
    if (text) rows.push([t(label), text]);
  }
  return rows;
}

/** The game's details as a list of terms, hidden when the record says nothing. */
export function gameInfo(state: GameState | undefined): VNode {
  const rows = state ? gameInfoRows(state) : [];
  return h(
    'dl#game-info.game-info',
    { props: { hidden: rows.length === 0 } },
    rows.flatMap(([label, text]) => [h('dt', label), h('dd', text)]),
  );
}
