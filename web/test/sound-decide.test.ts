import { describe, expect, it } from 'vitest';
import type { GameState } from '../src/api';
import { ClockCues, boardPieces, lastMoveCaptured, readClock, soundFor } from '../src/sound/decide';
import { clock, shogi } from './sound-fixture';

describe('capture detection', () => {
  it('counts the pieces on the board, not in hand', () => {
    expect(boardPieces(shogi(0).position)).toBe(40);
    expect(boardPieces('lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4')).toBe(39);
    expect(boardPieces('8/8/8/3pP3/8/8/8/8 w - d6 0 1')).toBe(2);
  });

  it('sees a capture as fewer pieces on the board, a drop and a quiet move as not', () => {
    expect(lastMoveCaptured(shogi(0))).toBe(false);
    expect(lastMoveCaptured(shogi(1))).toBe(false); // compared with the start position
    expect(lastMoveCaptured(shogi(3))).toBe(true); // bishop takes bishop, promoting
    expect(lastMoveCaptured(shogi(4))).toBe(true); // silver takes the horse
    expect(lastMoveCaptured(shogi(5))).toBe(false); // a drop
  });

  it('sees an en passant capture in Pawns-Only Chess', () => {
    const pawns: GameState = {
      ...shogi(0),
      variant: 'pawns',
      start: '8/8/8/3pP3/8/8/8/8 w - d6 0 1',
      moves: [{ usi: 'e5d6', notation: '1. exd6', color: 'white', check: false, position: '8/8/3P4/8/8/8/8/8 b - - 0 1' }],
    };
    expect(lastMoveCaptured(pawns)).toBe(true);
  });
});

describe('soundFor', () => {
  it('is silent for the first state, the same state, an older one and another game', () => {
    expect(soundFor(null, shogi(1), 'sente')).toEqual([]);
    expect(soundFor(shogi(1), shogi(1), 'sente')).toEqual([]);
    expect(soundFor(shogi(2), shogi(1, { version: 2 }), 'sente')).toEqual([]);
    expect(soundFor(shogi(1), shogi(2, { id: 'g2' }), 'sente')).toEqual([]);
  });

  it('plays a move, a capture, and a drop as a move', () => {
    expect(soundFor(shogi(0), shogi(1), 'sente')).toEqual(['move']);
    expect(soundFor(shogi(2), shogi(3), 'gote')).toEqual(['capture']);
    expect(soundFor(shogi(4), shogi(5), null)).toEqual(['move']);
  });

  it('plays the last move only when several arrive at once', () => {
    expect(soundFor(shogi(1), shogi(3), 'sente')).toEqual(['capture']);
  });

  it('adds the check after the move', () => {
    expect(soundFor(shogi(4), shogi(5, { check: true }), 'gote')).toEqual(['move', 'check']);
  });

  it('ends the game by side: victory, defeat, draw, or end for a page with both sides', () => {
    const mate = shogi(5, { check: true, outcome: { winner: 'sente', reason: 'checkmate', message: '' } });
    expect(soundFor(shogi(4), mate, 'sente')).toEqual(['move', 'victory']);
    expect(soundFor(shogi(4), mate, 'gote')).toEqual(['move', 'defeat']);
    expect(soundFor(shogi(4), mate, null)).toEqual(['move', 'end']);
    const drawn = shogi(5, { outcome: { winner: null, reason: 'repetition', message: '' } });
    expect(soundFor(shogi(4), drawn, 'sente')).toEqual(['move', 'draw']);
  });

  it('ends without a move on resignation or time, and only once', () => {
    const resigned = shogi(3, { version: 9, outcome: { winner: 'gote', reason: 'resignation', message: '' } });
    expect(soundFor(shogi(3), resigned, 'sente')).toEqual(['defeat']);
    expect(soundFor(resigned, { ...resigned, version: 10 }, 'sente')).toEqual([]);
  });

  it('is silent on a takeback, and replays nothing when the list only went back', () => {
    expect(soundFor(shogi(3), shogi(2, { version: 7 }), 'sente')).toEqual([]);
    expect(soundFor(shogi(3), shogi(0, { version: 7 }), null)).toEqual([]);
  });

  it('plays a move taken back and another played between two states', () => {
    const replayed = shogi(3, {
      version: 9,
      moves: [...shogi(2).moves, { ...shogi(3).moves[2], usi: '2g2f', position: shogi(2).position }],
    });
    expect(soundFor(shogi(3), replayed, 'sente')).toEqual(['move']);
  });

  it("sounds a notice for the other side's takeback request, not for one's own", () => {
    const asked = shogi(2, { version: 4, takeback: 'gote' });
    expect(soundFor(shogi(2), asked, 'sente')).toEqual(['notice']);
    expect(soundFor(shogi(2), asked, 'gote')).toEqual([]);
    expect(soundFor(asked, { ...asked, version: 5 }, 'sente')).toEqual([]);
  });
});

/** A state whose running clock is `side`'s, at ply 10. */
const timed = (side: 'sente' | 'gote', mainMs: number, byoyomiMs: number, control = {}): GameState =>
  shogi(0, { ply: 10, clock: clock(side, mainMs, byoyomiMs, control) });

describe('readClock', () => {
  it('counts main time, then byoyomi, from the time the state arrived', () => {
    const state = timed('sente', 2_000, 30_000, { byoyomiMs: 30_000 });
    expect(readClock(state, 1_000, null)).toMatchObject({ side: 'sente', mainMs: 1_000, byoyomiMs: 30_000, count: null });
    expect(readClock(state, 23_000, null)).toMatchObject({ mainMs: 0, byoyomiMs: 9_000, count: 9 });
    expect(readClock(state, 22_000, null)?.count).toBe(10);
    expect(readClock(state, 21_999, null)?.count).toBe(null);
    expect(readClock(state, 31_500, null)?.count).toBe(1);
    expect(readClock(state, 32_000, null)?.count).toBe(null); // out of time: the server decides
  });

  it('listens to one side only when the page has one, and to none once the game is over', () => {
    const state = timed('gote', 0, 5_000, { byoyomiMs: 30_000 });
    expect(readClock(state, 0, 'sente')).toBeNull();
    expect(readClock(state, 0, 'gote')?.count).toBe(5);
    expect(readClock({ ...state, outcome: { winner: 'sente', reason: 'time', message: '' } }, 0, null)).toBeNull();
    expect(readClock(shogi(0), 0, null)).toBeNull();
  });

  it('marks low time below an eighth of the initial time, within 10–60 s, only without byoyomi', () => {
    expect(readClock(timed('sente', 37_000, 0), 0, null)?.low).toBe(true); // 300 s / 8 = 37.5 s
    expect(readClock(timed('sente', 38_000, 0), 0, null)?.low).toBe(false);
    expect(readClock(timed('sente', 9_000, 0, { initialMs: 30_000 }), 0, null)?.low).toBe(true); // at least 10 s
    expect(readClock(timed('sente', 59_000, 0, { initialMs: 3_600_000 }), 0, null)?.low).toBe(true); // at most 60 s
    expect(readClock(timed('sente', 61_000, 0, { initialMs: 3_600_000 }), 0, null)?.low).toBe(false);
    expect(readClock(timed('sente', 5_000, 30_000, { byoyomiMs: 30_000 }), 0, null)?.low).toBe(false);
  });
});

describe('ClockCues', () => {
  it('says each of the last ten seconds once, however often it is asked', () => {
    const cues = new ClockCues();
    const state = timed('sente', 0, 30_000, { byoyomiMs: 30_000 });
    const heard: number[] = [];
    for (let elapsed = 0; elapsed <= 30_000; elapsed += 100) {
      const cue = cues.next(state, elapsed, null);
      if (cue?.kind === 'count') heard.push(cue.second);
      else expect(cue).toBeNull();
    }
    expect(heard).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('does not count again when the same state arrives anew, but does at the next move', () => {
    const cues = new ClockCues();
    const state = timed('sente', 0, 5_000, { byoyomiMs: 30_000 });
    expect(cues.next(state, 0, null)).toEqual({ kind: 'count', second: 5 });
    expect(cues.next({ ...state, version: 99 }, 0, null)).toBeNull();
    const next = { ...timed('gote', 0, 5_000, { byoyomiMs: 30_000 }), ply: 11 };
    expect(cues.next(next, 0, null)).toEqual({ kind: 'count', second: 5 });
  });

  it('skips the seconds a sleeping tab missed instead of saying them late', () => {
    const cues = new ClockCues();
    const state = timed('sente', 0, 10_000, { byoyomiMs: 10_000 });
    expect(cues.next(state, 0, null)).toEqual({ kind: 'count', second: 10 });
    expect(cues.next(state, 6_500, null)).toEqual({ kind: 'count', second: 4 });
    expect(cues.next(state, 6_600, null)).toBeNull();
  });

  it('warns of low time once per side, again only after the time rose above the line', () => {
    const cues = new ClockCues();
    const low = timed('sente', 20_000, 0);
    expect(cues.next(low, 0, null)).toEqual({ kind: 'lowTime' });
    expect(cues.next(low, 5_000, null)).toBeNull();
    expect(cues.next({ ...low, ply: 12 }, 0, null)).toBeNull(); // the next turn, still low
    expect(cues.next(timed('gote', 20_000, 0), 0, null)).toEqual({ kind: 'lowTime' });
    expect(cues.next(timed('sente', 50_000, 0), 0, null)).toBeNull(); // an increment lifted it
    expect(cues.next(timed('sente', 50_000, 0), 20_000, null)).toEqual({ kind: 'lowTime' });
  });

  it('forgets everything for another game', () => {
    const cues = new ClockCues();
    const low = timed('sente', 20_000, 0);
    expect(cues.next(low, 0, null)).toEqual({ kind: 'lowTime' });
    expect(cues.next({ ...low, id: 'g2' }, 0, null)).toEqual({ kind: 'lowTime' });
  });
});
