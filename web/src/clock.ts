// The clocks' state. The server keeps the time and alone decides when a
// flag falls; the page counts down from the time left that the state gives
// and the moment the state arrived. While a clock runs, the page is drawn
// again ten times a second; when the running clock reaches zero here, the
// page asks the server for the state shortly after (the server declares
// the timeout, or says how much time is really left). view/clock.ts draws.

import type { ClockState, Color, GameState } from './api';
import { opposite } from './sides';

/** Below this much time left a clock is marked low. */
export const LOW_MS = 10_000;
/** How long after zero on the page the server is asked, and at most how often. */
const ASK_AFTER_MS = 300;
const ASK_EVERY_MS = 1_000;
/** How often a running clock is drawn again. */
const TICK_MS = 100;

const pad = (n: number): string => String(n).padStart(2, '0');

/** `1:02:03`, `4:59`, under ten seconds `0:04.3`. */
export function formatClock(ms: number): string {
  const left = Math.max(0, ms);
  if (left < LOW_MS) {
    const tenths = Math.floor(left / 100);
    return `0:${pad(Math.floor(tenths / 10))}.${tenths % 10}`;
  }
  const seconds = Math.floor(left / 1000);
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** One side's time at a moment: main time, then byoyomi. */
export interface Reading {
  main: number;
  byoyomi: number;
  running: boolean;
}

/** A side's time at `now`, counted from the state that arrived at `receivedAt`. */
export function readClock(clock: ClockState, side: Color, over: boolean, receivedAt: number, now: number): Reading | undefined {
  const given = clock[side];
  if (!given) return undefined;
  const running = clock.running === side && !over;
  if (!running) return { main: given.mainMs, byoyomi: given.byoyomiMs, running };
  const elapsed = Math.max(0, now - receivedAt);
  return {
    main: Math.max(0, given.mainMs - elapsed),
    byoyomi: Math.max(0, given.byoyomiMs - Math.max(0, elapsed - given.mainMs)),
    running,
  };
}

export class ClockCtrl {
  clock: ClockState | null = null;
  over = false;
  /** The side whose flag fell, when the game ended so. */
  flagged?: Color;
  /** When the state arrived (`performance.now()`): the clocks count from then. */
  receivedAt = 0;
  private timer?: ReturnType<typeof setInterval>;
  private askTimer?: ReturnType<typeof setTimeout>;
  private lastAsk = -Infinity;

  constructor(
    /** Draws the page again. */
    private readonly tick: () => void,
    /** Asks the server for the game's state. */
    private readonly onZero: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Follows `state`, which arrived at `receivedAt`. */
  sync(state: GameState, receivedAt: number): void {
    this.clock = state.clock;
    this.over = !!state.outcome;
    // The server keeps the loser's byoyomi period as it was set; the
    // clock of a side that ran out of time shows none left.
    const outcome = state.outcome;
    this.flagged = outcome?.reason === 'timeout' && outcome.winner ? opposite(state.variant, outcome.winner) : undefined;
    this.receivedAt = receivedAt;
    const running = !!state.clock?.running && !this.over;
    if (running && this.timer === undefined) this.timer = setInterval(() => this.onTick(), TICK_MS);
    if (!running) this.stopTicking();
  }

  /** Stops counting (another game is shown). */
  clear(): void {
    this.stopTicking();
    clearTimeout(this.askTimer);
    this.askTimer = undefined;
    this.clock = null;
  }

  /** A side's time now. */
  read(side: Color, now: number): Reading | undefined {
    if (this.clock && side === this.flagged) return { main: 0, byoyomi: 0, running: false };
    return this.clock ? readClock(this.clock, side, this.over, this.receivedAt, now) : undefined;
  }

  private onTick(): void {
    const running = this.clock?.running ? this.read(this.clock.running, this.now()) : undefined;
    if (running?.running && running.main + running.byoyomi <= 0) this.askSoon();
    this.tick();
  }

  private stopTicking(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The running clock shows zero: asks the server shortly (never more than once a second). */
  private askSoon(): void {
    if (this.askTimer !== undefined) return;
    const wait = Math.max(ASK_AFTER_MS, this.lastAsk + ASK_EVERY_MS - this.now());
    this.askTimer = setTimeout(() => {
      this.askTimer = undefined;
      this.lastAsk = this.now();
      this.onZero();
    }, wait);
  }
}
