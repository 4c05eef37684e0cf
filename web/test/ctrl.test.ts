import { describe, expect, it } from 'vitest';
import { ApiError, type Analysis } from '../src/api';
import { messageText } from '../src/view/status';
import { after, fakeServer, GOTE_TOKEN, makeCtrl, played, SENTE_TOKEN, spearState } from './fixtures';
import { arrows, boardView, previewBoard } from '../src/board-view';

/** Lets the promises of a change settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Ctrl: starting and following games', () => {
  it('starts the game the form describes and follows it', async () => {
    const state = spearState();
    const server = fakeServer({ newGame: () => Promise.resolve(state) });
    const { ctrl, lives, urls, redraws } = makeCtrl(server);
    await ctrl.start(undefined);
    expect(server.calls[0]).toBe('newGame ["spear",{"opponent":{"kind":"human"}}]');
    expect(ctrl.state).toBe(state);
    expect(urls).toEqual([state.id]);
    expect(lives).toHaveLength(1);
    expect(redraws()).toBeGreaterThan(0);
    // Both seats of a game at one screen are this page's; Spear is drawn as its seed draws it, White at the bottom.
    expect(ctrl.seats()!.sides).toEqual(['sente', 'gote']);
    expect(ctrl.orientation).toBe('gote');
    expect(boardView(ctrl)!.movable).toBe('both');
  });

  it('keeps the newest state of a game: an older version is dropped', async () => {
    const state = spearState();
    const { ctrl } = makeCtrl(fakeServer({ newGame: () => Promise.resolve(state) }));
    await ctrl.start(undefined);
    const newer = after(state, [played('5d5c', '☗５三歩(54)', 'sente')]);
    ctrl.apply(newer);
    ctrl.apply(state);
    expect(ctrl.state!.version).toBe(newer.version);
    expect(ctrl.state!.ply).toBe(1);
  });

  it('puts the player at the bottom against the computer', async () => {
    const state = spearState({ opponent: { kind: 'computer', level: 5, color: 'sente' }, seats: { gote: GOTE_TOKEN } });
    const { ctrl } = makeCtrl(fakeServer({ newGame: () => Promise.resolve(state) }));
    await ctrl.start(undefined);
    expect(ctrl.orientation).toBe('gote');
    expect(ctrl.computerThinking()).toBe(true);
    expect(boardView(ctrl)!.movable).toBe('gote');
  });
});

describe('Ctrl: stepping through the moves', () => {
  async function withMoves() {
    const start = spearState();
    const state = after(start, [
      played('5d5c', '☗５三歩(54)', 'sente', 'p1'),
      played('1b1c', '☖１三歩(12)', 'gote', 'p2'),
      played('4e4d', '☗４四金(45)', 'sente', 'p3'),
    ]);
    const { ctrl } = makeCtrl(fakeServer({ newGame: () => Promise.resolve(state) }));
    await ctrl.start(undefined);
    return ctrl;
  }

  it('shows an earlier position for looking only, and clamps at both ends', async () => {
    const ctrl = await withMoves();
    ctrl.goTo(1);
    expect(ctrl.shown()).toBe(1);
    expect(ctrl.reviewing()).toBe(true);
    const view = boardView(ctrl)!;
    expect(view.position).toBe('p1');
    expect(view.lastMove).toBe('5d5c');
    expect(view.movable).toBe('none');
    expect(view.legalMoves).toEqual([]);
    expect(view.turn).toBe('gote');
    ctrl.goTo(-5);
    expect(ctrl.shown()).toBe(0);
    expect(boardView(ctrl)!.position).toBe(ctrl.state!.start);
    ctrl.goTo(99);
    expect(ctrl.shownPly).toBeUndefined();
    expect(ctrl.reviewing()).toBe(false);
  });

  it('maps the keys to the steps, flip and closing the result', async () => {
    const ctrl = await withMoves();
    ctrl.keyAction('ArrowLeft')!();
    expect(ctrl.shown()).toBe(2);
    ctrl.keyAction('Home')!();
    expect(ctrl.shown()).toBe(0);
    ctrl.keyAction('End')!();
    expect(ctrl.shown()).toBe(3);
    const before = ctrl.orientation;
    ctrl.keyAction('f')!();
    expect(ctrl.orientation).not.toBe(before);
    expect(ctrl.keyAction('x')).toBeUndefined();
  });
});

describe('Ctrl: changes sent to the server', () => {
  it('sends a move with the seat of the side to move, and takes the answer', async () => {
    const state = spearState();
    const next = after(state, [played('5d5c', '☗５三歩(54)', 'sente')]);
    const server = fakeServer({ newGame: () => Promise.resolve(state), playMove: () => Promise.resolve(next) });
    const { ctrl } = makeCtrl(server);
    await ctrl.start(undefined);
    ctrl.playMove('5d5c');
    await settle();
    expect(server.calls[1]).toBe(`playMove ["${state.id}","5d5c",0,"${SENTE_TOKEN}"]`);
    expect(ctrl.state).toBe(next);
  });

  it('shows a refusal, puts the board back and takes the state the server sent', async () => {
    const state = spearState();
    const server = fakeServer({
      newGame: () => Promise.resolve(state),
      playMove: () => Promise.reject(new ApiError('That move is not legal.', 400, { ...state, version: 2 })),
    });
    const { ctrl } = makeCtrl(server);
    await ctrl.start(undefined);
    const resets = ctrl.boardResets;
    ctrl.playMove('5d5a');
    await settle();
    expect(ctrl.message).toMatchObject({ text: 'That move is not legal.', kind: 'error' });
    expect(ctrl.boardResets).toBe(resets + 1);
    expect(ctrl.state!.version).toBe(2);
  });

  it('forgets a seat whose token the server does not know: the page then watches', async () => {
    const state = spearState();
    const server = fakeServer({
      newGame: () => Promise.resolve(state),
      resign: () => Promise.reject(new ApiError('Unknown seat token.', 403, undefined, 'bad-token')),
    });
    const { ctrl } = makeCtrl(server);
    await ctrl.start(undefined);
    ctrl.resign();
    await settle();
    expect(ctrl.seats()!.watching).toBe(true);
    expect(ctrl.message.kind).toBe('error');
  });

  it('opens the result box when the game ends here, and closes it', async () => {
    const state = spearState();
    const { ctrl } = makeCtrl(fakeServer({ newGame: () => Promise.resolve(state) }));
    await ctrl.start(undefined);
    ctrl.apply({ ...state, version: 2, outcome: { winner: 'gote', reason: 'resignation', message: 'Gote wins: Sente resigned.' } });
    expect(ctrl.resultShown).toBe(true);
    expect(boardView(ctrl)!.legalMoves).toEqual([]);
    ctrl.closeResult();
    expect(ctrl.resultShown).toBe(false);
  });

  it('says what became of a takeback this page asked for', async () => {
    const start = spearState({ mode: 'shared', seats: { sente: SENTE_TOKEN } });
    const moved = after(start, [played('5d5c', '☗５三歩(54)', 'sente'), played('1b1c', '☖１三歩(12)', 'gote')]);
    const { ctrl } = makeCtrl(fakeServer({ newGame: () => Promise.resolve(moved) }));
    ctrl.form.opponent = 'remote';
    await ctrl.start(undefined);
    ctrl.apply({ ...moved, version: moved.version + 1, takeback: 'sente' });
    ctrl.apply({ ...start, version: moved.version + 2 });
    expect(messageText(ctrl.message)).toBe('White ☖ accepted: your move was taken back.');
  });
});

describe('Ctrl: analysis follows the position shown', () => {
  it('asks the engine when switched on, again after a step, and stops when off', async () => {
    const state = after(spearState(), [played('5d5c', '☗５三歩(54)', 'sente')]);
    const { ctrl, lives } = makeCtrl(fakeServer({ newGame: () => Promise.resolve(state) }));
    await ctrl.start(undefined);
    const live = lives[0];
    ctrl.setAnalysis(true);
    ctrl.goTo(0);
    ctrl.setAnalysis(false);
    expect(live.analyses).toEqual([{ ply: 1, moves: [], lines: 3 }, { ply: 0, moves: [], lines: 3 }, undefined]);
  });

  it('asks for the number of lines chosen, kept by the browser, and starts again when it changes', async () => {
    const state = after(spearState(), [played('5d5c', '☗５三歩(54)', 'sente')]);
    const { ctrl, lives } = makeCtrl(fakeServer({ newGame: () => Promise.resolve(state) }));
    await ctrl.start(undefined);
    const live = lives[0];
    ctrl.setAnalysis(true);
    ctrl.setAnalysisLines(5);
    ctrl.setAnalysisLines(9);
    expect(live.analyses).toEqual([{ ply: 1, moves: [], lines: 3 }, { ply: 1, moves: [], lines: 5 }]);
    expect(localStorage.getItem('koma.analysisLines')).toBe('5');
    ctrl.setAnalysisLines(1);
    expect(live.analyses.at(-1)).toEqual({ ply: 1, moves: [], lines: 1 });
    // An analysis of other lines than asked is not shown.
    expect(ctrl.analysis.receive({ type: 'analysis', ply: 1, moves: [], multiPv: 5, status: 'running', depth: 1, nodes: 1, milliseconds: 1, lines: [], engines: { thinking: 1, cap: 1 } })).toBe(false);
    expect(ctrl.analysis.receive({ type: 'analysis', ply: 1, moves: [], multiPv: 1, status: 'running', depth: 1, nodes: 1, milliseconds: 1, lines: [], engines: { thinking: 1, cap: 1 } })).toBe(true);
  });

  it('asks the engine chosen, and a second one beside it, each shown apart', async () => {
    const state = after(spearState(), [played('5d5c', '☗５三歩(54)', 'sente')]);
    const { ctrl, lives } = makeCtrl(fakeServer({ newGame: () => Promise.resolve(state) }));
    await ctrl.start(undefined);
    const live = lives[0];
    const engine = (name: string, games: string[]) => ({ name, builtIn: name === 'koma', games, threads: 1 });
    ctrl.analysis.engines = [engine('koma', ['spear', 'shogi']), engine('yo', ['shogi']), engine('fsf', ['spear', 'shogi'])];
    ctrl.setAnalysis(true);
    // An engine that does not play the game is not asked: Koma's own is.
    ctrl.setAnalysisEngine('yo');
    expect(live.analyses).toEqual([{ ply: 1, moves: [], lines: 3 }]);
    ctrl.setAnalysisEngine('fsf');
    expect(live.analyses.at(-1)).toEqual({ ply: 1, moves: [], lines: 3, engine: 'fsf' });
    expect(localStorage.getItem('koma.analysisEngine')).toBe('fsf');
    ctrl.setAnalysisSecond('koma');
    expect(live.seconds.at(-1)).toEqual({ ply: 1, moves: [], lines: 3, engine: 'koma' });
    const message = (name: string, status: string, extra = {}) =>
      ({ type: 'analysis', engine: name, ply: 1, moves: [], multiPv: 3, status, depth: 2, nodes: 9, milliseconds: 1, lines: [], engines: { thinking: 2, cap: 2 }, ...extra }) as unknown as Analysis;
    expect(ctrl.analysis.receive(message('fsf', 'running'))).toBe(true);
    expect(ctrl.analysis.receive(message('koma', 'failed', { error: 'The engine koma stopped answering.' }))).toBe(true);
    expect(ctrl.analysis.analysis?.engine).toBe('fsf');
    expect(ctrl.analysis.secondFailure).toBe('The engine koma stopped answering.');
    expect(ctrl.analysis.receive(message('yo', 'running'))).toBe(false);
    // A refusal that names an engine goes to that engine's part; one that names none to the first's.
    expect(ctrl.analysis.refused('A connection analyses with at most 2 engines at once.', 'koma')).toBe(true);
    expect(ctrl.analysis.secondFailure).toBe('A connection analyses with at most 2 engines at once.');
    ctrl.analysis.refused('The engine fsf does not play spear.', 'fsf');
    expect(ctrl.analysis.failure).toBe('The engine fsf does not play spear.');
    // The second cannot be the first: choosing it as the first drops it.
    ctrl.setAnalysisEngine('koma');
    expect(ctrl.analysis.second).toBeUndefined();
    expect(live.seconds.at(-1)).toBeUndefined();
    ctrl.setAnalysis(false);
    expect(live.analyses.at(-1)).toBeUndefined();
  });

  it("draws the hovered line's first move, else the best move", async () => {
    const state = after(spearState(), [played('5d5c', '☗５三歩(54)', 'sente')]);
    const { ctrl } = makeCtrl(fakeServer({ newGame: () => Promise.resolve(state) }));
    await ctrl.start(undefined);
    ctrl.setAnalysis(true);
    const line = (usi: string) => ({ score: { kind: 'cp', value: 0 }, moves: [{ usi }] });
    const analysis = { type: 'analysis', ply: 1, moves: [], multiPv: 3, status: 'running', depth: 5, nodes: 9, milliseconds: 1, lines: [line('1b1c'), line('2a2b'), line('3a3b')], engines: { thinking: 1, cap: 1 } };
    expect(ctrl.analysis.receive(analysis as unknown as Analysis)).toBe(true);
    expect(arrows(ctrl)).toEqual([{ usi: '1b1c', kind: 'best' }]);
    ctrl.hoverAnalysisLine(2);
    expect(arrows(ctrl)).toEqual([{ usi: '3a3b', kind: 'best' }]);
    ctrl.hoverAnalysisLine(undefined);
    expect(arrows(ctrl)).toEqual([{ usi: '1b1c', kind: 'best' }]);
  });

  it('is not offered against the computer before the game ends', () => {
    const state = spearState({ opponent: { kind: 'computer', level: 1, color: 'gote' } });
    const { ctrl } = makeCtrl(fakeServer({}));
    ctrl.apply(state);
    ctrl.setAnalysis(true);
    expect(ctrl.analysis.on).toBe(false);
  });
});

describe('NewGameForm', () => {
  it('reads a handicap game against the computer, the giver moving first', async () => {
    const { ctrl } = makeCtrl(fakeServer({}));
    const form = ctrl.form;
    form.variant = 'shogi';
    form.handicap = 'two-piece';
    form.opponent = 'computer';
    form.computerOrder = 'first';
    form.level = '30';
    form.timeControl = '300+0+10';
    expect(form.read()).toEqual({
      variant: 'shogi',
      options: {
        opponent: { kind: 'computer', level: 20, color: 'gote' },
        handicap: 'two-piece',
        impasse: 27,
        clock: { initial: 300, byoyomi: 10 },
      },
    });
    expect(localStorage.getItem('koma.variant')).toBe('shogi');
  });

  it('names a registered engine that plays the game instead of a level, and Koma’s own where it does not', () => {
    const { ctrl } = makeCtrl(fakeServer({}));
    const form = ctrl.form;
    form.engines = [
      { name: 'koma', builtIn: true, games: ['spear', 'minishogi', 'shogi', 'pawns'], threads: 1 },
      { name: 'yo', builtIn: false, games: ['shogi'], threads: 2 },
    ];
    form.variant = 'shogi';
    form.opponent = 'computer';
    form.engine = 'yo';
    form.level = '7';
    expect(form.registeredEngines().map((engine) => engine.name)).toEqual(['yo']);
    expect(form.read().options.opponent).toEqual({ kind: 'computer', engine: 'yo', color: 'gote' });
    expect(localStorage.getItem('koma.computerEngine')).toBe('yo');
    // Minishogi: yo does not play it, so Koma's engine plays at the level.
    form.variant = 'minishogi';
    expect(form.registeredEngines()).toEqual([]);
    expect(form.read().options.opponent).toEqual({ kind: 'computer', level: 7, color: 'gote' });
    // The perfect player is Koma's: an engine chosen in Pawns-Only Chess would take its place.
    form.engines.push({ name: 'fsf', builtIn: false, games: ['pawns'], threads: 1 });
    form.variant = 'pawns';
    form.perfect = true;
    form.engine = 'fsf';
    expect(form.perfectChosen()).toBe(false);
    expect(form.read().options.opponent).toEqual({ kind: 'computer', engine: 'fsf', color: 'black' });
  });
});

describe('Ctrl: the Game menu and the pages', () => {
  it('previews the chosen game’s start until New game, the game’s own actions waiting', async () => {
    const state = spearState();
    const server = fakeServer({ newGame: () => Promise.resolve(state) });
    const { ctrl } = makeCtrl(server);
    await ctrl.start(undefined);
    ctrl.chooseVariant('pawns');
    expect(server.calls).toHaveLength(1);
    expect(ctrl.preview).toBe('pawns');
    expect(ctrl.form.variant).toBe('pawns');
    expect(boardView(ctrl)).toEqual({
      position: '8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1',
      lastMove: null,
      check: false,
      turn: 'white',
      legalMoves: [],
      movable: 'none',
    });
    expect(previewBoard(ctrl)!.orientation).toBe('white');
    expect(arrows(ctrl)).toEqual([]);
    // The menu back on the game's kind shows the game again.
    ctrl.chooseVariant('spear');
    expect(ctrl.preview).toBeUndefined();
    expect(boardView(ctrl)!.position).toBe(state.position);
    // A move of the game ends a preview, the menu back on the game.
    ctrl.chooseVariant('shogi');
    ctrl.apply(after(state, [played('5d5c', '☗５三歩(54)', 'sente')]));
    expect(ctrl.preview).toBeUndefined();
    expect(ctrl.form.variant).toBe('spear');
  });

  it('shows the start page and the rules pages, and starts a game of the kind asked', async () => {
    const state = spearState({ variant: 'minishogi' });
    const server = fakeServer({ newGame: () => Promise.resolve(state) });
    const { ctrl } = makeCtrl(server);
    await ctrl.go({ page: 'start' });
    expect(ctrl.page).toBe('start');
    expect(server.calls).toEqual([]);
    expect(ctrl.keyAction('f')).toBeUndefined();
    await ctrl.go({ page: 'rules', game: 'shogi' });
    expect([ctrl.page, ctrl.rulesGame]).toEqual(['rules', 'shogi']);
    await ctrl.go({ page: 'play', game: 'minishogi' });
    expect(ctrl.page).toBe('board');
    expect(server.calls[0]).toMatch(/^newGame \["minishogi",/);
    expect(ctrl.keyAction('f')).toBeDefined();
  });
});
