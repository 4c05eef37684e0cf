// The links of a game between two machines: the seat link the creator sends
// to the other player, the spectator link, and this page's own seat link
// (to open on another device), each with a Copy button.

import type { Color, GameState } from './api';
import type { Seating } from './seats';
import { colorsOf, sideName } from './sides';
import { seatLink, watchLink } from './route';

interface Link {
  kind: 'opponent' | 'watch' | 'own';
  side?: Color;
  label: string;
  url: string;
}

function linksOf(state: GameState, seating: Seating): Link[] {
  const links: Link[] = [];
  const name = (side: Color): string => sideName(state.variant, side, state.handicap);
  for (const side of colorsOf(state.variant)) {
    const token = seating.invited[side];
    if (token && !seating.holds(side))
      links.push({ kind: 'opponent', side, label: `Your opponent's seat (${name(side)}): send this link to the other player`, url: seatLink(state.id, side, token) });
  }
  links.push({ kind: 'watch', label: 'Spectators: anyone with this link watches the game', url: watchLink(state.id) });
  for (const side of seating.sides) {
    const token = seating.tokens[side];
    if (token) links.push({ kind: 'own', side, label: `Your own seat (${name(side)}), to play on another device`, url: seatLink(state.id, side, token) });
  }
  return links;
}

async function copy(text: string, input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (or refused): the old way, from the selected field.
    input.focus();
    input.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

/** Shows the links of a shared game in `panel` (hidden for other games). */
export function renderInvite(panel: HTMLElement, list: HTMLElement, state: GameState, seating: Seating): void {
  panel.hidden = state.mode !== 'shared';
  if (panel.hidden) {
    list.textContent = '';
    list.dataset.key = '';
    return;
  }
  const links = linksOf(state, seating);
  const key = JSON.stringify(links);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.textContent = '';
  for (const link of links) {
    const id = `link-${link.kind}${link.side ? `-${link.side}` : ''}`;
    const row = document.createElement('div');
    row.className = 'invite-link';
    row.dataset.kind = link.kind;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = link.label;
    const field = document.createElement('div');
    field.className = 'invite-field';
    const input = document.createElement('input');
    input.id = id;
    input.type = 'text';
    input.readOnly = true;
    input.value = link.url;
    input.spellcheck = false;
    input.addEventListener('focus', () => input.select());
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', `Copy: ${link.label}`);
    button.addEventListener('click', () => {
      void copy(link.url, input).then((done) => {
        button.textContent = done ? 'Copied' : 'Select and copy it';
        window.setTimeout(() => (button.textContent = 'Copy'), 2000);
      });
    });
    field.append(input, button);
    row.append(label, field);
    list.appendChild(row);
  }
}
