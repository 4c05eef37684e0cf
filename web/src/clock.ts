// The clocks beside the board. The server keeps the time and alone decides
// when a flag falls; the page counts down from the time left that the
// state gives and the moment the state arrived. When the running clock
// reaches zero here, the page asks the server for the state shortly after
// (the server declares the timeout, or says how much time is really left).

import type { ClockState, Color, GameState, Handicap } from './api';
import { opposite, sideName } from './sides';
import type { VariantId } from './variants';

/** Below this much time left a clock is marked low. */
const LOW_MS = 10_000;
/** How long after zero on the page the server is asked, and at most how often. */
const ASK_AFTER_MS = 300;
const ASK_EVERY_MS = 1_000;

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

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10}`;

/** One side's time now: main time, then byoyomi. */
interface Reading {
  main: number;
  byoyomi: number;
  running: boolean;
}

export class Clocks {
  private clock: ClockState | null = null;
  private variant: VariantId = 'spear';
  private handicap?: Handicap;
  private bottom: Color = 'sente';
  private receivedAt = 0;
  private over = false;
  private timer?: number;
  private askTimer?: number;
  private lastAsk = -Infinity;

  /** `onZero` asks the server for the game's state. */
  constructor(
    private readonly area: HTMLElement,
    private readonly topElement: HTMLElement,
    private readonly bottomElement: HTMLElement,
    private readonly onZero: () => void,
  ) {}

  /** Shows the clocks of `state`, which arrived at `receivedAt` (`performance.now()`), with `bottom` at the bottom. */
  show(state: GameState, receivedAt: number, bottom: Color): void {
    this.clock = state.clock;
    this.variant = state.variant;
    this.handicap = state.handicap;
    this.bottom = bottom;
    this.receivedAt = receivedAt;
    this.over = !!state.outcome;
    this.area.dataset.clock = state.clock ? 'on' : '';
    this.topElement.hidden = this.bottomElement.hidden = !state.clock;
    const running = !!state.clock?.running && !this.over;
    if (running && this.timer === undefined) this.timer = window.setInterval(() => this.draw(), 100);
    if (!running) this.stopTicking();
    this.draw();
  }

  /** Stops counting (another game is shown). */
  clear(): void {
    this.stopTicking();
    window.clearTimeout(this.askTimer);
    this.askTimer = undefined;
    this.clock = null;
  }

  private stopTicking(): void {
    if (this.timer !== undefined) window.clearInterval(this.timer);
    this.timer = undefined;
  }

  private read(side: Color, now: number): Reading | undefined {
    const clock = this.clock;
    const given = clock?.[side];
    if (!clock || !given) return undefined;
    const running = clock.running === side && !this.over;
    if (!running) return { main: given.mainMs, byoyomi: given.byoyomiMs, running };
    const elapsed = Math.max(0, now - this.receivedAt);
    return {
      main: Math.max(0, given.mainMs - elapsed),
      byoyomi: Math.max(0, given.byoyomiMs - Math.max(0, elapsed - given.mainMs)),
      running,
    };
  }

  private draw(): void {
    const clock = this.clock;
    if (!clock) return;
    const now = performance.now();
    const top = opposite(this.variant, this.bottom);
    for (const [element, side] of [
      [this.topElement, top],
      [this.bottomElement, this.bottom],
    ] as const) {
      const reading = this.read(side, now);
      if (reading) this.drawSide(element, side, clock, reading);
    }
    const running = clock.running ? this.read(clock.running, now) : undefined;
    if (running?.running && running.main + running.byoyomi <= 0) this.askSoon();
  }

  private drawSide(element: HTMLElement, side: Color, clock: ClockState, reading: Reading): void {
    const inByoyomi = reading.main <= 0 && clock.byoyomiMs > 0;
    const time = formatClock(inByoyomi ? reading.byoyomi : reading.main);
    let extra = '';
    if (inByoyomi) extra = 'byoyomi';
    else if (clock.byoyomiMs > 0) extra = `+${seconds(clock.byoyomiMs)}s byoyomi`;
    else if (clock.incrementMs > 0) extra = `+${seconds(clock.incrementMs)}s a move`;
    const name = sideName(this.variant, side, this.handicap);
    const state = {
      color: side,
      running: reading.running ? 'true' : 'false',
      low: reading.main + reading.byoyomi < LOW_MS ? 'true' : 'false',
      byoyomi: inByoyomi ? 'true' : 'false',
    };
    if (element.dataset.color !== side || element.childElementCount === 0) {
      element.textContent = '';
      for (const part of ['name', 'time', 'extra']) {
        const span = document.createElement('span');
        span.className = `clock-${part}`;
        element.appendChild(span);
      }
      element.setAttribute('role', 'timer');
    }
    Object.assign(element.dataset, state);
    element.setAttribute('aria-label', `${name}'s clock${reading.running ? ' (running)' : ''}`);
    const [nameSpan, timeSpan, extraSpan] = Array.from(element.children) as HTMLElement[];
    if (nameSpan.textContent !== name) nameSpan.textContent = name;
    if (timeSpan.textContent !== time) timeSpan.textContent = time;
    if (extraSpan.textContent !== extra) extraSpan.textContent = extra;
  }

  /** The running clock shows zero: asks the server shortly (never more than once a second). */
  private askSoon(): void {
    if (this.askTimer !== undefined) return;
    const wait = Math.max(ASK_AFTER_MS, this.lastAsk + ASK_EVERY_MS - performance.now());
    this.askTimer = window.setTimeout(() => {
      this.askTimer = undefined;
      this.lastAsk = performance.now();
      this.onZero();
    }, wait);
  }
}
