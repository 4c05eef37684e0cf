import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClockCtrl, formatClock, readClock } from '../src/clock';
import { spearState } from './fixtures';

afterEach(() => vi.useRealTimers());

describe('formatClock', () => {
  it('writes minutes and seconds, hours past the hour, tenths under ten seconds', () => {
    expect(formatClock(299_000)).toBe('4:59');
    expect(formatClock(3_723_000)).toBe('1:02:03');
    expect(formatClock(4_321)).toBe('0:04.3');
    expect(formatClock(-5)).toBe('0:00.0');
  });
});

describe('readClock', () => {
  const clock = { initialMs: 60_000, incrementMs: 0, byoyomiMs: 10_000, running: 'sente' as const, sente: { mainMs: 1_000, byoyomiMs: 10_000 }, gote: { mainMs: 60_000, byoyomiMs: 10_000 } };

  it('counts the running side down from the state, main time first, then byoyomi', () => {
    expect(readClock(clock, 'sente', false, 0, 500)).toEqual({ main: 500, byoyomi: 10_000, running: true });
    expect(readClock(clock, 'sente', false, 0, 4_000)).toEqual({ main: 0, byoyomi: 7_000, running: true });
    expect(readClock(clock, 'gote', false, 0, 4_000)).toEqual({ main: 60_000, byoyomi: 10_000, running: false });
  });

  it('stands once the game is over', () => {
    expect(readClock(clock, 'sente', true, 0, 4_000)).toEqual({ main: 1_000, byoyomi: 10_000, running: false });
  });
});

describe('ClockCtrl', () => {
  it('draws ten times a second while a clock runs, and asks the server shortly after zero', () => {
    vi.useFakeTimers();
    let now = 0;
    let ticks = 0;
    let asks = 0;
    const clocks = new ClockCtrl(
      () => ticks++,
      () => asks++,
      () => now,
    );
    const state = spearState({
      clock: { initialMs: 1_000, incrementMs: 0, byoyomiMs: 0, running: 'sente', sente: { mainMs: 1_000, byoyomiMs: 0 }, gote: { mainMs: 1_000, byoyomiMs: 0 } },
    });
    clocks.sync(state, 0);
    now = 500;
    vi.advanceTimersByTime(500);
    expect(ticks).toBe(5);
    expect(asks).toBe(0);
    now = 1_100;
    vi.advanceTimersByTime(600);
    vi.advanceTimersByTime(400);
    expect(asks).toBe(1);
    // The game ended: the clocks stand, nothing more is drawn.
    clocks.sync({ ...state, outcome: { winner: 'gote', reason: 'timeout', message: 'Gote wins: Sente ran out of time.' } }, now);
    const before = ticks;
    vi.advanceTimersByTime(1_000);
    expect(ticks).toBe(before);
  });

  it("shows no time left on the clock of a side that ran out, byoyomi included", () => {
    const clocks = new ClockCtrl(() => {}, () => {}, () => 0);
    const clock = { initialMs: 60_000, incrementMs: 0, byoyomiMs: 10_000, running: null, sente: { mainMs: 0, byoyomiMs: 10_000 }, gote: { mainMs: 42_000, byoyomiMs: 10_000 } };
    const over = spearState({ clock, outcome: { winner: 'gote', reason: 'timeout', message: 'Gote wins: Sente ran out of time.' } });
    clocks.sync(over, 0);
    expect(clocks.read('sente', 0)).toEqual({ main: 0, byoyomi: 0, running: false });
    expect(clocks.read('gote', 0)).toEqual({ main: 42_000, byoyomi: 10_000, running: false });
    // A resignation leaves both clocks as they stood.
    clocks.sync({ ...over, outcome: { winner: 'gote', reason: 'resignation', message: 'Sente resigned.' } }, 0);
    expect(clocks.read('sente', 0)).toEqual({ main: 0, byoyomi: 10_000, running: false });
  });
});
