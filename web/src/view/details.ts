// The record's details edited by a player before saving it: an Edit button
// under the game's details, and the small form it opens (the players'
// names, event, place, date, time control, opening and the comment before
// the first move). The server checks and keeps them (docs/API.md).

import { h, type VNode } from 'snabbdom';
import { DETAIL_FIELDS, type Ctrl } from '../ctrl';
import { t } from '../i18n';
import { colorsOf, sideName } from '../sides';

/** The label of a field of the form. */
function label(ctrl: Ctrl, key: string): string {
  const state = ctrl.state!;
  const [first, second] = colorsOf(state.variant);
  if (key === 'sente') return sideName(state.variant, first, state.handicap);
  if (key === 'gote') return sideName(state.variant, second, state.handicap);
  return t(key === 'startTime' ? 'info.date' : `info.${key}`);
}

/** The Edit button, or the form it opened; nothing for a page that only watches. */
export function detailsEditor(ctrl: Ctrl): VNode {
  const details = ctrl.details;
  if (!ctrl.state || ctrl.seats()?.watching) return h('div#details.details', { props: { hidden: true } });
  if (!details)
    return h('div#details.details', { props: { hidden: false } }, [
      h('button#details-edit', { attrs: { type: 'button' }, on: { click: () => ctrl.editDetails() } }, t('details.edit')),
    ]);
  const input = (key: string): VNode =>
    h('label.details-field', [
      label(ctrl, key),
      h(`input#details-${key}`, {
        attrs: { type: 'text', maxlength: 200 },
        props: { value: details[key] ?? '' },
        on: { input: (event: Event) => (details[key] = (event.target as HTMLInputElement).value) },
      }),
    ]);
  return h('form#details.details', { props: { hidden: false }, on: { submit: (event: Event) => (event.preventDefault(), ctrl.saveDetails()) } }, [
    ...DETAIL_FIELDS.map(input),
    h('label.details-field', [
      t('details.comment'),
      h('textarea#details-comment', {
        attrs: { rows: 3, maxlength: 4000 },
        props: { value: details.comment ?? '' },
        on: { input: (event: Event) => (details.comment = (event.target as HTMLTextAreaElement).value) },
      }),
    ]),
    h('button#details-save', { attrs: { type: 'submit' } }, t('details.save')),
    h('button#details-cancel', { attrs: { type: 'button' }, on: { click: () => ctrl.cancelDetails() } }, t('details.cancel')),
  ]);
}
