// Which sound a change of the game calls for: pure functions of the
// server's states (web/src/api.ts), so that they are tested without a
// browser and the page never has to reason about sounds itself.
//
// SPDX-License-Identifier: GPL-3.0-or-later

import type { ClockState, Color, GameState } from '../api';

/** Every sound the board makes, but the byoyomi count's words. */
export type SoundName =
  | 'move'
  | 'capture'
  | 'check'
  /** The game ended and this page's side won. */
  | 'victory'
  /** The game ended and this page's side lost. */
  | 'defeat'
  | 'draw'
  /** The game ended, seen by a page that plays both sides or watches. */
  | 'end'
  | 'lowTime'
  /** Something asks for an answer: the opponent's takeback request. */
  | 'notice';

/** The number of pieces on the board of an SFEN or FEN (its first field; hands are not counted). */
export function boardPieces(position: string): number {
  const board = position.trim().split(/\s+/)[0] ?? '';
  // Letters are pieces; digits are empty squares, `/` ends a rank and `+`
  // marks a promoted piece: none of them is a piece of its own.
  return (board.match(/[A-Za-z]/g) ?? []).length;
}

/**
 * Whether the last move of `state` took a piece. Read from the positions,
 * not from the notation (Japanese notation has no capture mark): a
 * capture is the only move that leaves fewer pieces on the board than
 * before it (a taken shogi piece goes to the hand, a chess pawn leaves the
 * game, an en passant capture too); a drop adds one, any other move keeps
 * the count.
 */
export function lastMoveCaptured(state: GameState): boolean {
  const count = state.moves.length;
  if (count === 0) return false;
  const before = count >= 2 ? state.moves[count - 2].position : state.start;
  return boardPieces(state.moves[count - 1].position) < boardPieces(before);
}

/** Whether `next` holds a move that `previous` did not: a move played, not a takeback nor the same state again. */
function newMove(previous: GameState, next: GameState): boolean {
  const [before, after] = [previous.moves.length, next.moves.length];
  if (after === 0 || after < before) return false;
  // The same number of moves with another last one: a move taken back and
  // another played between two states this page saw.
  return after > before || next.moves[after - 1].usi !== previous.moves[before - 1].usi;
}

/** The end sound for `mySide`: null for a page that plays both sides or only watches. */
function endSound(winner: Color | null, mySide: Color | null): SoundName {
  if (winner === null) return 'draw';
  if (mySide === null) return 'end';
  return winner === mySide ? 'victory' : 'defeat';
}

/**
 * The sounds that the change from `previous` to `next` calls for, in the
 * order to play them: a new move's `move` or `capture`, then `check`, or
 * the game's end instead of the check when the move ended it; the end
 * alone when the game ended without a move (resignation, time, impasse);
 * `notice` when the other side asks to take a move back.
 *
 * Nothing for the first state a page sees (`previous` null), another game,
 * a state no newer than the last, or a takeback. The page's own browsing of
 * the move list makes no new state, so it is never heard: call this only
 * with the states the server sends.
 *
 * `mySide` is the side this page plays, null when it plays both (one screen
 * for two players) or watches; it chooses victory or defeat over `end`.
 */
export function soundFor(previous: GameState | null, next: GameState, mySide: Color | null): SoundName[] {
  if (!previous || previous.id !== next.id || next.version <= previous.version) return [];
  const sounds: SoundName[] = [];
  const moved = newMove(previous, next);
  if (moved) sounds.push(lastMoveCaptured(next) ? 'capture' : 'move');
  if (next.outcome && !previous.outcome) sounds.push(endSound(next.outcome.winner, mySide));
  else if (moved && next.check && !next.outcome) sounds.push('check');
  if (next.takeback && next.takeback !== previous.takeback && next.takeback !== mySide && !next.outcome) {
    sounds.push('notice');
  }
  return sounds;
}

/** The low-time warning: under this share of the initial time … */
const LOW_TIME_SHARE = 1 / 8;
/** … but never under 10 s nor over 60 s (as lichess warns). */
const LOW_TIME_MIN_MS = 10_000;
const LOW_TIME_MAX_MS = 60_000;
/** The byoyomi count says the last this many seconds. */
export const COUNT_FROM = 10;

/** Below this much main time a clock without byoyomi warns once. */
export function lowTimeThreshold(clock: ClockState): number {
  return Math.min(LOW_TIME_MAX_MS, Math.max(LOW_TIME_MIN_MS, clock.initialMs * LOW_TIME_SHARE));
}

/** What the running clock calls for at one moment. */
export interface ClockReading {
  /** The side whose clock runs. */
  side: Color;
  /** The main time left, then the byoyomi left, in ms. */
  mainMs: number;
  byoyomiMs: number;
  /** Set while under the low-time threshold of a game without byoyomi. */
  low: boolean;
  /** In the last ten seconds of byoyomi: the second to say (10 … 1). */
  count: number | null;
}

/**
 * The running clock of `state`, `elapsedMs` after the state arrived, as
 * the page counts it (docs/GUI.md, clocks): main time first, then byoyomi.
 * Null when no clock runs, the game is over, or the page listens for
 * `mySide` only and the other side's clock runs (`mySide` null: any side,
 * one screen for two players).
 */
export function readClock(state: GameState, elapsedMs: number, mySide: Color | null): ClockReading | null {
  const clock = state.clock;
  const side = clock?.running;
  const given = side ? clock?.[side] : undefined;
  if (!clock || !side || !given || state.outcome) return null;
  if (mySide !== null && side !== mySide) return null;
  const elapsed = Math.max(0, elapsedMs);
  const mainMs = Math.max(0, given.mainMs - elapsed);
  const byoyomiMs = Math.max(0, given.byoyomiMs - Math.max(0, elapsed - given.mainMs));
  const inByoyomi = mainMs <= 0 && clock.byoyomiMs > 0;
  // Say n while between n and n - 1 seconds are left: "ten" at 10.0 s.
  const second = Math.ceil(byoyomiMs / 1000);
  return {
    side,
    mainMs,
    byoyomiMs,
    // With byoyomi the count warns; main time running out is no danger.
    low: clock.byoyomiMs === 0 && mainMs > 0 && mainMs < lowTimeThreshold(clock),
    count: inByoyomi && byoyomiMs > 0 && second <= COUNT_FROM ? second : null,
  };
}

/** A clock sound to play now. */
export type ClockCue = { kind: 'lowTime' } | { kind: 'count'; second: number };

/**
 * Remembers which clock sounds were played, so that each plays once however
 * often the page asks (it asks every tick, and again when a state arrives
 * anew for the same move): a byoyomi count once per second of each
 * period (a period is a side's turn at a ply), the low-time warning once per
 * side until that side's time is above the threshold again (an increment).
 */
export class ClockCues {
  private game = '';
  private period = '';
  private said = new Set<number>();
  private warned = new Set<Color>();

  /** The sound the clock calls for now, if it was not played yet (see {@link readClock} for the arguments). */
  next(state: GameState, elapsedMs: number, mySide: Color | null): ClockCue | null {
    const reading = readClock(state, elapsedMs, mySide);
    if (!reading) return null;
    if (state.id !== this.game) {
      this.reset();
      this.game = state.id;
    }
    const period = `${state.id} ${state.ply} ${reading.side}`;
    if (period !== this.period) {
      this.period = period;
      this.said.clear();
    }
    if (!reading.low && reading.mainMs > 0) this.warned.delete(reading.side);
    if (reading.count !== null) {
      if (this.said.has(reading.count)) return null;
      this.said.add(reading.count);
      return { kind: 'count', second: reading.count };
    }
    if (reading.low && !this.warned.has(reading.side)) {
      this.warned.add(reading.side);
      return { kind: 'lowTime' };
    }
    return null;
  }

  /** Forgets everything (another game is shown). */
  reset(): void {
    this.game = '';
    this.period = '';
    this.said.clear();
    this.warned.clear();
  }
}
