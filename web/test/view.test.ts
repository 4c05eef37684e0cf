import { describe, expect, it } from 'vitest';
import type { VNode } from 'snabbdom';
import { Ground, needsShow, type GroundConfig } from '../src/ground';
import { VARIANTS } from '../src/variants';
import { levelElo } from '../src/levels';
import { controlsView, takebackView } from '../src/view/controls';
import { resultView, view } from '../src/view/layout';
import { moveList } from '../src/view/moves';
import { sideClock } from '../src/view/clock';
import { statusView } from '../src/view/status';
import { after, allNodes, byClass, byId, fakeServer, GOTE_TOKEN, hidden, makeCtrl, played, SENTE_TOKEN, spearState, text } from './fixtures';
import type { GameState } from '../src/api';

/** A state made to show `state`, as a page that started it. */
function ctrlShowing(state: GameState) {
  const { ctrl } = makeCtrl(fakeServer({}));
  ctrl.apply(state);
  return ctrl;
}

const buttonIds = (vnode: VNode): string[] =>
  allNodes(vnode)
    .filter((node) => node.sel?.startsWith('button#') && !hidden(node))
    .map((node) => node.sel!.slice('button#'.length).split('.')[0]);

describe('takeback', () => {
  const asked = (seats: GameState['seats']) =>
    after(spearState({ mode: 'shared', seats }), [played('5d5c', '☗５三歩(54)', 'sente'), played('1b1c', '☖１三歩(12)', 'gote')], {
      takeback: 'sente',
    });

  it('shows Accept and Decline to the player asked', () => {
    localStorage.setItem('koma.seats.0123456789abcdef', JSON.stringify({ gote: GOTE_TOKEN }));
    const box = takebackView(ctrlShowing(asked(undefined)));
    expect(hidden(box)).toBe(false);
    expect(text(box)).toContain('Black ☗ asks to take back a move.');
    expect(buttonIds(box)).toEqual(['takeback-accept', 'takeback-decline']);
  });

  it('tells the asker to wait, with no buttons', () => {
    localStorage.setItem('koma.seats.0123456789abcdef', JSON.stringify({ sente: SENTE_TOKEN }));
    const box = takebackView(ctrlShowing(asked(undefined)));
    expect(text(box)).toBe('You asked to take back your move: waiting for White ☖ to answer.');
    expect(buttonIds(box)).toEqual([]);
  });

  it('is hidden when nobody asked', () => {
    expect(hidden(takebackView(ctrlShowing(spearState())))).toBe(true);
  });
});

describe('a finished game', () => {
  const finished = () => {
    const state = spearState();
    const ctrl = ctrlShowing(state);
    ctrl.apply({ ...state, version: 2, outcome: { winner: 'gote', reason: 'resignation', message: 'Gote wins: Sente resigned.' } });
    return ctrl;
  };

  it('names the winner in the result box, in the players’ words', () => {
    const box = resultView(finished());
    expect(hidden(box)).toBe(false);
    expect(text(byId(box, 'result-title'))).toBe('White ☖ wins!');
    expect(text(byId(box, 'result-detail'))).toBe('White wins: Black resigned.');
  });

  it('shows the outcome in the status and at the end of the move list, and Resign is disabled', () => {
    const ctrl = finished();
    const status = statusView(ctrl);
    expect(text(byClass(status, 'outcome')[0])).toBe('White wins: Black resigned.');
    expect(text(byClass(moveList(ctrl.state!, ctrl.shown(), () => {}), 'outcome')[0])).toBe('White wins: Black resigned.');
    const resign = byId(controlsView(ctrl), 'resign')!;
    expect(resign.data?.props?.disabled).toBe(true);
  });
});

describe('move list', () => {
  it('never cuts a move short, and marks the move shown', () => {
    const long = '☗８八角不成(79)';
    const state = after(spearState({ variant: 'shogi' }), [played('7i8h', long, 'sente')]);
    const list = moveList(state, 1, () => {});
    const buttons = allNodes(list).filter((node) => node.sel === 'button');
    expect(buttons.map((button) => text(button))).toEqual(['Start', `1. ${long}`]);
    expect(buttons[1].data?.class?.current).toBe(true);
    expect(buttons[0].data?.class?.current).toBe(false);
  });

  it("writes Spear's moves as the seed does, or in Japanese", () => {
    const move = { ...played('5d5c', '☗５三歩(54)', 'sente'), seed: 'p 54 53' };
    const state = after(spearState(), [move]);
    const moves = (spear: 'seed' | 'japanese') =>
      allNodes(moveList(state, 1, () => {}, { spear }))
        .filter((node) => node.sel === 'button')
        .map((node) => text(node));
    expect(moves('seed')[1]).toBe('1. p 54 53');
    expect(moves('japanese')[1]).toBe('1. ☗５三歩(54)');
  });
});

describe('controls', () => {
  it('offers a watcher neither Undo nor Resign', () => {
    localStorage.setItem('koma.seats.0123456789abcdef', '{}');
    const ctrl = ctrlShowing(spearState({ seats: undefined }));
    const ids = buttonIds(controlsView(ctrl));
    expect(ids).toContain('flip');
    expect(ids).not.toContain('undo');
    expect(ids).not.toContain('resign');
    expect(text(statusView(ctrl))).toContain('You are watching this game: only its players can move.');
  });

  it('asks to take back in a game between two machines', () => {
    localStorage.setItem('koma.seats.0123456789abcdef', JSON.stringify({ sente: SENTE_TOKEN }));
    const state = after(spearState({ mode: 'shared', seats: undefined }), [played('5d5c', '☗５三歩(54)', 'sente')]);
    const undo = byId(controlsView(ctrlShowing(state)), 'undo')!;
    expect(text(undo)).toBe('Ask to take back');
    expect(undo.data?.props?.disabled).toBe(false);
  });

  it('disables the move buttons at the ends of the game', () => {
    const state = after(spearState(), [played('5d5c', '☗５三歩(54)', 'sente')]);
    const ctrl = ctrlShowing(state);
    const disabled = (id: string) => byId(controlsView(ctrl), id)!.data?.props?.disabled;
    expect([disabled('first'), disabled('previous'), disabled('next'), disabled('last')]).toEqual([false, false, true, true]);
    ctrl.goTo(0);
    expect([disabled('first'), disabled('previous'), disabled('next'), disabled('last')]).toEqual([true, true, false, false]);
  });
});

describe('clock', () => {
  const clock = { initialMs: 60_000, incrementMs: 0, byoyomiMs: 10_000, running: 'sente' as const };

  it('shows the main time, then the byoyomi', () => {
    const main = sideClock('clock-bottom', 'shogi', 'sente', undefined, clock, { main: 65_000, byoyomi: 10_000, running: true });
    expect(allNodes(main).map((node) => text(node)).slice(1)).toEqual(['Sente ☗', '1:05', '+10s byoyomi']);
    expect(main.data?.dataset).toMatchObject({ running: 'true', low: 'false', byoyomi: 'false' });
    const byoyomi = sideClock('clock-bottom', 'shogi', 'sente', undefined, clock, { main: 0, byoyomi: 4_300, running: true });
    expect(text(byClass(byoyomi, 'clock-time')[0])).toBe('0:04.3');
    expect(text(byClass(byoyomi, 'clock-extra')[0])).toBe('byoyomi');
    expect(byoyomi.data?.dataset).toMatchObject({ low: 'true', byoyomi: 'true' });
  });
});

describe('the page', () => {
  it('draws every part of a game with the ids the page is known by', () => {
    const ctrl = ctrlShowing(spearState());
    const page = view(ctrl, new Ground(() => {}), 0);
    for (const id of ['new-game', 'status', 'board-area', 'board', 'hand-top', 'hand-bottom', 'move-list', 'analysis-panel', 'result'])
      expect(byId(page, id), id).toBeDefined();
    const area = byId(page, 'board-area')!;
    expect(area.key).toBe('spear');
    expect(area.data?.dataset).toMatchObject({ variant: 'spear', top: 'sente', bottom: 'gote' });
    // The widget owns what is inside the board and the hands.
    expect(byId(page, 'board')!.children).toBeUndefined();
  });

  it('offers the handicaps and the impasse rule for shogi only', () => {
    const ctrl = ctrlShowing(spearState());
    const form = () => view(ctrl, new Ground(() => {}), 0);
    expect(hidden(byId(form(), 'handicap-options'))).toBe(true);
    ctrl.form.variant = 'shogi';
    expect(hidden(byId(form(), 'handicap-options'))).toBe(false);
    expect(hidden(byId(form(), 'impasse-options'))).toBe(false);
  });

  it('shows what the chosen level is worth where the ladder measured it', () => {
    const ctrl = ctrlShowing(spearState());
    const worth = () => allNodes(view(ctrl, new Ground(() => {}), 0)).find((node) => node.sel === 'span#level-elo.level-elo');
    ctrl.form.variant = 'shogi';
    ctrl.form.level = '8';
    expect(worth()?.text).toBe(` ≈ ${levelElo('shogi', 8)!.toLocaleString('en-US')} on Koma’s scale`);
    ctrl.form.level = '3';
    ctrl.form.variant = 'minishogi';
    expect(worth()?.text).toBe(` ≈ ${levelElo('minishogi', 3)!.toLocaleString('en-US')} on Koma’s scale`);
    // Full strength is no rung of the ladder.
    ctrl.form.level = '20';
    expect(worth()).toBeUndefined();
  });
});

describe('ground', () => {
  const config = (over: Partial<GroundConfig> = {}): GroundConfig => ({
    variant: VARIANTS.spear,
    pieceSet: 'kanji',
    orientation: 'sente',
    view: { position: 'x', lastMove: null, check: false, turn: 'sente', legalMoves: ['5d5c'], movable: 'both' },
    resets: 0,
    arrows: [],
    ...over,
  });

  it('leaves the widget alone when nothing on the board changed, so a piece picked up stays picked up', () => {
    expect(needsShow(config(), config({ arrows: [{ usi: '5d5c', kind: 'best' }], orientation: 'gote' }))).toBe(false);
    expect(needsShow(config(), config({ resets: 1 }))).toBe(true);
    expect(needsShow(config(), config({ view: { ...config().view, legalMoves: [] } }))).toBe(true);
    expect(needsShow(undefined, config())).toBe(true);
  });
});
