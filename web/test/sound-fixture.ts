// Game states for the sound tests: a shogi game's opening with a capture
// and a drop, and pawn positions with an en passant capture.

import type { ClockState, GameState, PlayedMove } from '../src/api';

export const SHOGI_START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

/** 7g7f 3c3d 8h2b+ (bishop takes bishop) 3a2b (silver takes back) B*4e (a drop): positions after each. */
export const SHOGI_MOVES: PlayedMove[] = [
  { usi: '7g7f', notation: '☗７六歩(77)', color: 'sente', check: false, position: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2' },
  { usi: '3c3d', notation: '☖３四歩(33)', color: 'gote', check: false, position: 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3' },
  { usi: '8h2b+', notation: '☗２二角成(88)', color: 'sente', check: false, position: 'lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4' },
  { usi: '3a2b', notation: '☖同　銀(31)', color: 'gote', check: false, position: 'ln1gkgsnl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5' },
  { usi: 'B*4e', notation: '☗４五角打', color: 'sente', check: false, position: 'ln1gkgsnl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6' },
];

/** A shogi game after its first `ply` moves of SHOGI_MOVES, with anything else set by `change`. */
export function shogi(ply: number, change: Partial<GameState> = {}): GameState {
  const moves = SHOGI_MOVES.slice(0, ply);
  return {
    id: 'g1',
    variant: 'shogi',
    version: ply + 1,
    ply,
    start: SHOGI_START,
    position: moves.length ? moves[moves.length - 1].position : SHOGI_START,
    turn: ply % 2 === 0 ? 'sente' : 'gote',
    check: false,
    hands: null,
    legalMoves: [],
    moves,
    lastMove: moves.length ? moves[moves.length - 1].usi : null,
    outcome: null,
    headers: {},
    opponent: { kind: 'human' },
    mode: 'shared',
    guarded: true,
    takeback: null,
    clock: null,
    ...change,
  };
}

/** A clock with `side` running; the other side's time is 60 s. */
export function clock(side: 'sente' | 'gote', mainMs: number, byoyomiMs: number, control: Partial<ClockState> = {}): ClockState {
  const other = side === 'sente' ? 'gote' : 'sente';
  return {
    initialMs: 300_000,
    incrementMs: 0,
    byoyomiMs: 0,
    running: side,
    [side]: { mainMs, byoyomiMs },
    [other]: { mainMs: 60_000, byoyomiMs: control.byoyomiMs ?? 0 },
    ...control,
  };
}
