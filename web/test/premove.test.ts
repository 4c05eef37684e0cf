import { describe, expect, it } from 'vitest';
import type { GameState } from '../src/api';
import { boardActor, type BoardView } from '../src/board';
import { Ctrl } from '../src/ctrl';
import { predropDests, premoveDests, premovePromotion } from '../src/premove';
import { VARIANTS } from '../src/variants';
import { after, fakeServer, makeCtrl, played, SENTE_TOKEN, spearState } from './fixtures';
import { boardView } from '../src/board-view';

/** Lets the promises of a change settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Spear against the computer (White, gote), this page holding Black's (sente's) seat. */
const againstComputer = (overrides: Partial<GameState> = {}) =>
  spearState({ opponent: { kind: 'computer', level: 1, color: 'gote' }, seats: { sente: SENTE_TOKEN }, ...overrides });

/** The player's move 5d5c is on the board: the computer (gote) is to move. */
const MOVED = (start: GameState) => after(start, [played('5d5c', '☗５三歩(54)', 'sente')], { legalMoves: ['1b1c', '2a2b'] });
/** The computer's reply: the player (sente) is to move again, with `legal` its moves. */
const REPLIED = (moved: GameState, legal: string[]) =>
  after(moved, [played('1b1c', '☖１三歩(12)', 'gote', 'lbsgk/5/P3p/5/KGSBL b - 3')], { legalMoves: legal });

/** A game against the computer started, the player's first move made: the computer thinks. */
async function waitingForTheComputer(overrides: Partial<GameState> = {}) {
  const start = againstComputer(overrides);
  const moved = MOVED(start);
  const server = fakeServer({ newGame: () => Promise.resolve(start), playMove: () => Promise.resolve(moved) });
  const { ctrl } = makeCtrl(server);
  await ctrl.start(undefined);
  ctrl.apply(moved);
  return { ctrl, server, moved };
}

const movesSent = (server: { calls: string[] }) => server.calls.filter((call) => call.startsWith('playMove'));

describe('Ctrl: premoves', () => {
  it('keeps a premove while the computer thinks and plays it on its reply, as a normal move', async () => {
    const { ctrl, server, moved } = await waitingForTheComputer();
    expect(ctrl.premoveSide()).toBe('sente');
    expect(boardView(ctrl)!.premovable).toBe(true);
    ctrl.setPremove('4e4d');
    expect(ctrl.premove).toEqual({ usi: '4e4d', ply: 1 });
    // The same state again (the WebSocket's copy of the answer) keeps it.
    ctrl.apply(moved);
    expect(ctrl.premove?.usi).toBe('4e4d');
    expect(movesSent(server)).toEqual([]);
    const replied = REPLIED(moved, ['4e4d', '3e3d']);
    ctrl.apply(replied);
    expect(ctrl.premove).toBeUndefined();
    await settle();
    expect(movesSent(server)).toEqual([`playMove ["${moved.id}","4e4d",2,"${SENTE_TOKEN}"]`]);
  });

  it('drops a premove the reply made illegal, sending nothing', async () => {
    const { ctrl, server, moved } = await waitingForTheComputer();
    ctrl.setPremove('4e4d');
    ctrl.apply(REPLIED(moved, ['3e3d']));
    await settle();
    expect(ctrl.premove).toBeUndefined();
    expect(movesSent(server)).toEqual([]);
  });

  it('keeps one made while the move before it is on its way, and plays it after the reply', async () => {
    const start = againstComputer();
    const moved = MOVED(start);
    const { ctrl } = makeCtrl(fakeServer({ newGame: () => Promise.resolve(start) }));
    await ctrl.start(undefined);
    // The widget moved 5d5c and the server has not answered: the premove counts from ply 0.
    ctrl.setPremove('4e4d');
    expect(ctrl.premove).toEqual({ usi: '4e4d', ply: 0 });
    ctrl.apply(moved);
    expect(ctrl.premove?.usi, 'kept when the move is answered').toBe('4e4d');
  });

  it('drops one when the move before it is refused (the same ply comes back)', async () => {
    const start = againstComputer();
    const server = fakeServer({ newGame: () => Promise.resolve(start) });
    const { ctrl } = makeCtrl(server);
    await ctrl.start(undefined);
    ctrl.setPremove('4e4d');
    ctrl.apply({ ...start, version: start.version + 1 });
    await settle();
    expect(ctrl.premove).toBeUndefined();
    expect(movesSent(server)).toEqual([]);
  });

  it('is cleared by a new game, a takeback, looking back, the end of the game and the switch', async () => {
    const { ctrl, moved } = await waitingForTheComputer();
    ctrl.setPremove('4e4d');
    ctrl.apply(againstComputer({ id: 'fedcba9876543210' }));
    expect(ctrl.premove, 'another game').toBeUndefined();

    const second = await waitingForTheComputer();
    second.ctrl.setPremove('4e4d');
    second.ctrl.apply({ ...againstComputer(), version: second.moved.version + 1 });
    expect(second.ctrl.premove, 'a takeback: fewer moves').toBeUndefined();
    second.ctrl.apply({ ...second.moved, version: second.moved.version + 2 });
    second.ctrl.setPremove('4e4d');
    second.ctrl.undo();
    expect(second.ctrl.premove, 'Undo pressed').toBeUndefined();
    // Two moves taken back while the opponent is to move: its turn again, but an earlier position.
    const threeMoves = after(REPLIED(second.moved, []), [played('4e4d', '☗４四金(45)', 'sente')], { version: 20 });
    second.ctrl.apply(threeMoves);
    second.ctrl.setPremove('3e3d');
    expect(second.ctrl.premove?.ply).toBe(3);
    second.ctrl.apply({ ...second.moved, version: 21 });
    expect(second.ctrl.premove, 'two moves taken back').toBeUndefined();

    ctrl.apply({ ...moved, version: 50 });
    ctrl.setPremove('4e4d');
    ctrl.goTo(0);
    expect(ctrl.premove, 'an earlier move shown').toBeUndefined();
    expect(ctrl.premoveSide(), 'no premove while reviewing').toBeUndefined();
    ctrl.goTo(Infinity);
    ctrl.setPremove('4e4d');
    ctrl.apply({ ...moved, version: 51, outcome: { winner: 'sente', reason: 'resignation', message: 'White resigned.' } });
    expect(ctrl.premove, 'the game ended').toBeUndefined();

    const third = await waitingForTheComputer();
    third.ctrl.setPremove('4e4d');
    third.ctrl.setPremovesOn(false);
    expect(third.ctrl.premove, 'switched off').toBeUndefined();
    expect(boardView(third.ctrl)!.premovable).toBe(false);
    third.ctrl.setPremove('4e4d');
    expect(third.ctrl.premove, 'none is kept while off').toBeUndefined();
  });

  it('cancelled on the board, it is not played', async () => {
    const { ctrl, server, moved } = await waitingForTheComputer();
    ctrl.setPremove('4e4d');
    ctrl.setPremove(undefined);
    ctrl.apply(REPLIED(moved, ['4e4d']));
    await settle();
    expect(movesSent(server)).toEqual([]);
  });

  it('is not offered to two people at one screen, and the board is told to drop one', async () => {
    const state = spearState();
    const { ctrl } = makeCtrl(fakeServer({ newGame: () => Promise.resolve(state) }));
    await ctrl.start(undefined);
    expect(ctrl.premoveSide()).toBeUndefined();
    expect(boardView(ctrl)!.premovable).toBe(false);
    const resets = ctrl.boardResets;
    ctrl.setPremove('4e4d');
    expect(ctrl.premove).toBeUndefined();
    expect(ctrl.boardResets).toBe(resets + 1);
  });

  it('is offered on two machines, to the side this page plays', async () => {
    const { ctrl } = await waitingForTheComputer({ opponent: { kind: 'human' }, mode: 'shared' });
    expect(ctrl.premoveSide()).toBe('sente');
  });

  it('remembers the switch in the browser', () => {
    const first = makeCtrl(fakeServer({})).ctrl;
    expect(first.premovesOn).toBe(true);
    first.setPremovesOn(false);
    expect(localStorage.getItem('koma.premoves')).toBe('off');
    expect(makeCtrl(fakeServer({})).ctrl.premovesOn).toBe(false);
    expect(first).toBeInstanceOf(Ctrl);
  });
});

describe('premove squares', () => {
  const { shogi, minishogi, spear } = VARIANTS;
  const sorted = (keys: string[]) => [...keys].sort();

  it('go where the piece could move on an empty board, forward being each side’s own', () => {
    expect(premoveDests(shogi, 'pawn', 'sente', '7g')).toEqual(['7f']);
    expect(premoveDests(shogi, 'pawn', 'gote', '3c')).toEqual(['3d']);
    expect(sorted(premoveDests(shogi, 'knight', 'sente', '8i'))).toEqual(['7g', '9g']);
    expect(sorted(premoveDests(shogi, 'knight', 'gote', '1a'))).toEqual(['2c']);
    expect(premoveDests(shogi, 'lance', 'sente', '1i')).toEqual(['1h', '1g', '1f', '1e', '1d', '1c', '1b', '1a']);
    expect(premoveDests(shogi, 'rook', 'sente', '5e')).toHaveLength(16);
    expect(sorted(premoveDests(shogi, 'silver', 'gote', '5b'))).toEqual(['4a', '4c', '5c', '6a', '6c']);
    // Spear's elephant slides along its forward diagonals only; the promoted silver steps one or two.
    expect(sorted(premoveDests(spear, 'bishop', 'sente', '2e'))).toEqual(['1d', '3d', '4c', '5b']);
    expect(premoveDests(spear, 'promotedsilver', 'sente', '3c')).toHaveLength(16);
    expect(premoveDests(shogi, 'knight', 'sente', '1b')).toEqual([]);
    expect(sorted(premoveDests(minishogi, 'gold', 'gote', '5a'))).toEqual(['4a', '4b', '5b']);
  });

  it('take drops on any square without the player’s piece, but not where the piece could never move', () => {
    const own = new Set(['5i']);
    const pawn = predropDests(shogi, 'pawn', 'sente', own);
    expect(pawn).toHaveLength(81 - 9 - 1);
    expect(pawn.some((key) => key.endsWith('a'))).toBe(false);
    expect(pawn).not.toContain('5i');
    expect(predropDests(shogi, 'knight', 'gote', new Set()).some((key) => /[hi]$/.test(key))).toBe(false);
    expect(predropDests(shogi, 'gold', 'gote', new Set())).toHaveLength(81);
    // Spear forbids no drop.
    expect(predropDests(spear, 'pawn', 'sente', new Set())).toHaveLength(25);
    expect(predropDests(minishogi, 'pawn', 'gote', new Set()).some((key) => key.endsWith('e'))).toBe(false);
  });

  it('promote as each game’s zone says: asked where optional, at once where forced', () => {
    expect(premovePromotion(shogi, 'pawn', 'sente', '7d', '7c')).toBe('optional');
    expect(premovePromotion(shogi, 'pawn', 'sente', '7b', '7a')).toBe('forced');
    expect(premovePromotion(shogi, 'knight', 'sente', '8d', '7b')).toBe('forced');
    expect(premovePromotion(shogi, 'silver', 'sente', '7c', '7d')).toBe('optional');
    expect(premovePromotion(shogi, 'silver', 'gote', '7c', '7d')).toBe('none');
    expect(premovePromotion(shogi, 'bishop', 'gote', '8b', '2h')).toBe('optional');
    expect(premovePromotion(shogi, 'gold', 'sente', '5d', '5c')).toBe('none');
    expect(premovePromotion(shogi, 'dragon', 'sente', '5d', '5c')).toBe('none');
    expect(premovePromotion(minishogi, 'pawn', 'sente', '3b', '3a')).toBe('forced');
    expect(premovePromotion(minishogi, 'silver', 'sente', '3b', '3a')).toBe('optional');
    expect(premovePromotion(minishogi, 'silver', 'sente', '3c', '3b')).toBe('none');
    expect(premovePromotion(spear, 'silver', 'sente', '3c', '3b')).toBe('forced');
    expect(premovePromotion(spear, 'silver', 'sente', '3b', '3c')).toBe('none');
    expect(premovePromotion(spear, 'lance', 'gote', '1c', '1d')).toBe('forced');
  });
});

describe('boardActor: who may act on the board', () => {
  const view = (overrides: Partial<BoardView>): BoardView => ({
    position: 'x',
    lastMove: null,
    check: false,
    turn: 'sente',
    legalMoves: ['5d5c'],
    movable: 'sente',
    ...overrides,
  });

  it('is the side to move on its turn, the player ahead of its turn when it may premove, else nobody', () => {
    expect(boardActor(view({}))).toBe('move');
    expect(boardActor(view({ movable: 'both', turn: 'gote' }))).toBe('move');
    expect(boardActor(view({ legalMoves: [] }))).toBeUndefined();
    expect(boardActor(view({ turn: 'gote' }))).toBeUndefined();
    expect(boardActor(view({ turn: 'gote', premovable: true }))).toBe('premove');
    expect(boardActor(view({ movable: 'none', premovable: true }))).toBeUndefined();
  });
});
