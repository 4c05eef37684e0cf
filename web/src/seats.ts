// The seats this browser holds. Whoever holds a seat's token plays that side;
// a page with no token for a game only watches it. Tokens come from the
// answer that creates a game, or from a seat link, and are kept in
// localStorage (`koma.seats.<gameId>` → `{side: token}`) so that a reload
// keeps them. The seats a creator gives away (the other player's, in a game
// between two machines) are kept apart, for the invitation
// (`koma.invite.<gameId>`): holding them does not make this page play them.

import type { Color, GameState, SeatTokens } from './api';
import { colorsOf, opposite, sideOf } from './sides';
import type { VariantId } from './variants';

const TOKEN = /^[0-9a-f]{32}$/i;

export const isToken = (text: string): boolean => TOKEN.test(text);

function read(key: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key) ?? '{}');
    if (!value || typeof value !== 'object') return {};
    const out: Record<string, string> = {};
    for (const [side, token] of Object.entries(value)) if (typeof token === 'string' && isToken(token)) out[side] = token;
    return out;
  } catch {
    return {};
  }
}

function write(key: string, tokens: Record<string, string>): void {
  try {
    if (Object.keys(tokens).length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(tokens));
  } catch {
    // Storage full or refused: the seat lasts as long as the page.
  }
}

/** Tokens as kept, by the game's own names for its sides (either family of words is read). */
function tokensIn(variant: VariantId, stored: Record<string, string>): SeatTokens {
  const out: SeatTokens = {};
  for (const [name, token] of Object.entries(stored)) {
    const side = sideOf(variant, name);
    if (side) out[side] = token;
  }
  return out;
}

const seatsKey = (id: string): string => `koma.seats.${id}`;
const inviteKey = (id: string): string => `koma.invite.${id}`;

/** Keeps seats this page plays. */
export function keepSeats(id: string, tokens: SeatTokens | Record<string, string>): void {
  write(seatsKey(id), { ...read(seatsKey(id)), ...(tokens as Record<string, string>) });
}

/** Forgets the seats this page held in a game (the server does not know their tokens). */
export function forgetSeats(id: string): void {
  write(seatsKey(id), {});
}

/** Keeps seats given away, for the invitation. */
export function keepInvitation(id: string, tokens: SeatTokens): void {
  write(inviteKey(id), { ...read(inviteKey(id)), ...(tokens as Record<string, string>) });
}

/** The seats of a new game: every seat of a local game is this page's; of a shared one, only `mine`. */
export function keepNewGame(state: GameState, mine?: Color): void {
  const seats = state.seats ?? {};
  if (state.mode !== 'shared' || !mine) {
    keepSeats(state.id, seats);
    return;
  }
  const own: SeatTokens = {};
  const others: SeatTokens = {};
  for (const [side, token] of Object.entries(seats) as [Color, string][]) (side === mine ? own : others)[side] = token;
  keepSeats(state.id, own);
  keepInvitation(state.id, others);
}

/** What this page holds of a game. */
export class Seating {
  private constructor(
    readonly variant: VariantId,
    /** The seats this page plays, by side. */
    readonly tokens: SeatTokens,
    /** The seats this page gave away (its invitation). */
    readonly invited: SeatTokens,
    /** A game kept before seats existed: anyone may play either side, without a token. */
    readonly open: boolean,
  ) {}

  static of(state: GameState): Seating {
    return new Seating(
      state.variant,
      tokensIn(state.variant, read(seatsKey(state.id))),
      tokensIn(state.variant, read(inviteKey(state.id))),
      state.guarded === false,
    );
  }

  /** The sides this page plays, first mover's first. */
  get sides(): Color[] {
    return colorsOf(this.variant).filter((side) => this.open || this.tokens[side]);
  }

  get watching(): boolean {
    return this.sides.length === 0;
  }

  holds(side: Color): boolean {
    return this.open || !!this.tokens[side];
  }

  /** The token of the first side in `preferred` this page holds, else of any it holds. */
  tokenFor(...preferred: Color[]): string | undefined {
    for (const side of [...preferred, ...this.sides]) if (this.tokens[side]) return this.tokens[side];
    return undefined;
  }

  /** The side shown at the bottom: the only one played, else the first mover. */
  bottom(): Color {
    const sides = this.sides;
    return sides.length === 1 ? sides[0] : colorsOf(this.variant)[0];
  }

  /**
   * The seat that speaks for this page about a takeback in a shared game:
   * the one answering the other's request, else the one that moved last
   * (a page holding both seats asks for the side not to move).
   */
  takebackSeat(state: GameState): Color | undefined {
    const sides = this.sides;
    if (state.takeback) return sides.find((side) => side !== state.takeback) ?? (this.holds(state.takeback) ? state.takeback : undefined);
    const justMoved = opposite(state.variant, state.turn);
    return this.holds(justMoved) ? justMoved : sides[0];
  }
}
