// Learn from your mistakes: which moves become exercises, and the state
// machine from a move tried to the summary.
import { describe, expect, it } from 'vitest';
import type { Analysis, GameReview, GameState, MoveReview, PositionReview } from '../src/api';
import { exercisesOf, INACCURACY_LOSS, LearnCtrl, learnSide } from '../src/learn';
import { after, fakeServer, makeCtrl, played, spearState } from './fixtures';
import { boardView } from '../src/board-view';

const moves = [
  played('5d5c', '☗５三歩(54)', 'sente'),
  played('4a4b', '☖４二銀(41)', 'gote'),
  played('4e4d', '☗４四金(45)', 'sente'),
  played('2a2b', '☖２二角(21)', 'gote'),
];

const judged = (ply: number, label: MoveReview['label'], better?: string): MoveReview => ({
  ply,
  loss: label === 'blunder' ? 0.2 : label === 'mistake' ? 0.12 : 0,
  label,
  accuracy: 50,
  better: better ? played(better, `better ${better}`, ply % 2 === 1 ? 'sente' : 'gote', `after ${better}`) : null,
});

/** A reviewed game: Sente's first move a mistake (3e3d better), Gote's second a blunder, Sente's second an inaccuracy. */
function reviewed(): GameState {
  const positions: PositionReview[] = [0.6, 0.5, 0.5, 0.45, 0.3].map((expected, ply) => ({ ply, evaluation: { cp: 0, expected }, best: null, depth: 5 }));
  const review: GameReview = {
    nodes: 1000,
    positions,
    moves: [judged(1, 'mistake', '3e3d'), judged(2, null), judged(3, 'inaccuracy', '1e1d'), judged(4, 'blunder', '1a1b')],
    sides: {},
  };
  return after(spearState(), moves, { outcome: { winner: 'sente', reason: 'resignation', text: '' } as never, review });
}

const analysis = (over: Partial<Analysis>): Analysis => ({
  type: 'analysis',
  ply: 0,
  moves: [],
  multiPv: 1,
  status: 'running',
  depth: 5,
  nodes: 5000,
  milliseconds: 100,
  lines: [],
  engines: { thinking: 1, cap: 1 },
  ...over,
});

describe('learn: the exercises', () => {
  it('are the mistakes and blunders of one side, not its inaccuracies', () => {
    const state = reviewed();
    expect(exercisesOf(state, state.review!, 'sente').map((e) => e.ply)).toEqual([1]);
    expect(exercisesOf(state, state.review!, 'gote').map((e) => [e.ply, e.label])).toEqual([[4, 'blunder']]);
  });

  it("start with the page's own side, else the first side with any", () => {
    const state = reviewed();
    expect(learnSide(state, ['gote'])).toBe('gote');
    expect(learnSide(state, ['sente', 'gote'])).toBe('sente');
    const learn = new LearnCtrl();
    expect(learn.start({ ...state, review: { ...state.review!, moves: [] } }, 'sente')).toBe(false);
    expect(learn.active()).toBe(false);
  });
});

describe('learn: the state machine', () => {
  it('asks for the legal moves before the mistake, and takes the better move as good at once', () => {
    const learn = new LearnCtrl();
    expect(learn.start(reviewed(), 'sente')).toBe(true);
    expect(learn.status).toBe('find');
    expect(learn.beforePly()).toBe(0);
    expect(learn.request()).toEqual({ ply: 0, moves: [], lines: 1 });
    expect(learn.movable()).toBe(false);
    // An analysis of another position is not ours.
    expect(learn.receive(analysis({ ply: 1, legalMoves: ['x'] }))).toBe(false);
    expect(learn.receive(analysis({ legalMoves: ['5d5c', '3e3d', '4e4d'] }))).toBe(true);
    expect(learn.movable()).toBe(true);
    expect(learn.request()).toBeNull();
    learn.play('3e3d');
    expect(learn.status).toBe('good');
    expect(learn.movable()).toBe(false);
    learn.next();
    expect(learn.status).toBe('done');
    expect(learn.summary()).toEqual({ total: 1, solved: 1, shown: 0, skipped: 0 });
  });

  it('says try again for the mistake itself, without asking the engine', () => {
    const learn = new LearnCtrl();
    learn.start(reviewed(), 'sente');
    learn.receive(analysis({ legalMoves: ['5d5c', '3e3d', '4e4d'] }));
    learn.play('5d5c');
    expect(learn.status).toBe('wrong');
    expect(learn.request()).toBeNull();
    expect(learn.movable()).toBe(true);
  });

  it('judges another move by a search of the position after it, against the inaccuracy threshold', () => {
    const learn = new LearnCtrl();
    learn.start(reviewed(), 'sente');
    learn.receive(analysis({ legalMoves: ['5d5c', '3e3d', '4e4d'] }));
    learn.play('4e4d');
    expect(learn.status).toBe('checking');
    expect(learn.request()).toEqual({ ply: 0, moves: ['4e4d'], lines: 1 });
    const line = (expected: number) => [{ score: { cp: 0, expected }, moves: [] }];
    // Too few nodes yet (the review's were 1000): wait.
    expect(learn.receive(analysis({ moves: ['4e4d'], nodes: 10, lines: line(0.59) }))).toBe(false);
    expect(learn.status).toBe('checking');
    // Sente's 0.6 before; 0.6 − 0.5 is more than the threshold.
    expect(learn.receive(analysis({ moves: ['4e4d'], nodes: 2000, lines: line(0.5) }))).toBe(true);
    expect(learn.status).toBe('wrong');
    expect(learn.loss).toBeCloseTo(0.1);
    learn.play('4e4d');
    learn.receive(analysis({ moves: ['4e4d'], status: 'done', lines: line(0.6 - INACCURACY_LOSS / 2) }));
    expect(learn.status).toBe('good');
    expect(learn.summary().solved).toBe(1);
  });

  it("judges from the second player's view for Gote", () => {
    const learn = new LearnCtrl();
    learn.start(reviewed(), 'gote');
    expect(learn.beforePly()).toBe(3);
    learn.receive(analysis({ ply: 3, legalMoves: ['1a1b', '3a3b'] }));
    learn.play('3a3b');
    // Gote's 1 − 0.45 = 0.55 before; the first player's 0.47 after is Gote's 0.53.
    learn.receive(analysis({ ply: 3, moves: ['3a3b'], nodes: 1000, lines: [{ score: { cp: 0, expected: 0.47 }, moves: [] }] }));
    expect(learn.status).toBe('good');
  });

  it("takes the server's refusal: the move being judged is given back", () => {
    const learn = new LearnCtrl();
    learn.start(reviewed(), 'sente');
    expect(learn.refused('Analysis is not offered here.')).toBe(true);
    expect(learn.failure).toBe('Analysis is not offered here.');
    learn.receive(analysis({ legalMoves: ['5d5c', '3e3d', '4e4d'] }));
    expect(learn.failure).toBeUndefined();
    learn.play('4e4d');
    expect(learn.refused('Too many messages.')).toBe(true);
    expect(learn.status).toBe('find');
    expect(learn.movable()).toBe(true);
    // Nothing asked: a refusal is someone else's.
    expect(learn.refused('other')).toBe(false);
  });

  it('shows the answer, skips, and sums up', () => {
    const state = reviewed();
    const review = state.review!;
    const twice: GameState = { ...state, review: { ...review, moves: review.moves.map((m) => (m.ply === 3 ? { ...m, label: 'blunder' } : m)) } };
    const learn = new LearnCtrl();
    learn.start(twice, 'sente');
    expect(learn.exercises.map((e) => e.ply)).toEqual([1, 3]);
    learn.showAnswer();
    expect(learn.status).toBe('shown');
    expect(learn.request()).toBeNull();
    learn.next();
    expect(learn.index).toBe(1);
    expect(learn.status).toBe('find');
    expect(learn.request()).toEqual({ ply: 2, moves: [], lines: 1 });
    learn.skip();
    expect(learn.status).toBe('done');
    expect(learn.current()).toBeUndefined();
    expect(learn.summary()).toEqual({ total: 2, solved: 0, shown: 1, skipped: 1 });
    learn.exit();
    expect(learn.active()).toBe(false);
  });
});

describe('learn: on the page', () => {
  it('turns the analysis off, asks for the position before the mistake, takes a move there and puts the switch back', () => {
    const { ctrl, lives } = makeCtrl(fakeServer({}));
    ctrl.apply(reviewed());
    const live = lives[0];
    ctrl.setAnalysis(true);
    ctrl.startLearning('sente');
    expect(ctrl.analysis.on).toBe(false);
    expect(live.analyses.at(-1)).toEqual({ ply: 0, moves: [], lines: 1 });
    expect(ctrl.shown()).toBe(0);
    expect(boardView(ctrl)?.movable).toBe('none');
    // The switch waits for the mode's end: the connection has one analysis.
    ctrl.setAnalysis(true);
    expect(ctrl.analysis.on).toBe(false);
    live.handlers!.onAnalysis(analysis({ legalMoves: ['5d5c', '3e3d', '4e4d'] }));
    // The legal moves arrived: the engine is told to stop, the board takes Sente's move.
    expect(live.analyses.at(-1)).toBeUndefined();
    const view = boardView(ctrl)!;
    expect(view).toMatchObject({ position: spearState().start, movable: 'sente', legalMoves: ['5d5c', '3e3d', '4e4d'] });
    // A move on the board is the person's try, not a move of the game.
    ctrl.playMove('4e4d');
    expect(ctrl.learn.status).toBe('checking');
    expect(live.analyses.at(-1)).toEqual({ ply: 0, moves: ['4e4d'], lines: 1 });
    const resets = ctrl.boardResets;
    live.handlers!.onAnalysis(analysis({ moves: ['4e4d'], status: 'done', lines: [{ score: { cp: -200, expected: 0.3 }, moves: [] }] }));
    expect(ctrl.learn.status).toBe('wrong');
    expect(ctrl.boardResets).toBe(resets + 1);
    ctrl.playMove('3e3d');
    expect(ctrl.learn.status).toBe('good');
    expect(boardView(ctrl)).toMatchObject({ position: 'after 3e3d', lastMove: '3e3d', movable: 'none' });
    ctrl.stopLearning();
    expect(ctrl.learn.active()).toBe(false);
    expect(ctrl.analysis.on).toBe(true);
    expect(live.analyses.at(-1)).toMatchObject({ ply: 0, lines: 3 });
  });
});
