// Rematch and the record details edited: what the state asks of the server and shows.
import { describe, expect, it } from 'vitest';
import type { GameState } from '../src/api';
import { rematchPrompt } from '../src/rematch';
import { Seating } from '../src/seats';
import { fakeServer, GOTE_TOKEN, makeCtrl, SENTE_TOKEN, spearState } from './fixtures';

const OVER = { winner: 'gote' as const, reason: 'resignation', message: 'White wins: Black resigned.' };
const NEW_TOKEN = 'c'.repeat(32);

/** A finished game between two machines, this page holding Black's seat. */
function finished(overrides: Partial<GameState> = {}): GameState {
  return spearState({ mode: 'shared', seats: { sente: SENTE_TOKEN }, outcome: OVER, legalMoves: [], version: 3, ...overrides });
}

describe('Rematch', () => {
  it('at one screen starts the new game at once with the seats the answer gives', async () => {
    const old = spearState({ outcome: OVER, legalMoves: [], version: 3 });
    const next = spearState({ id: 'fedcba9876543210', seats: { sente: NEW_TOKEN, gote: GOTE_TOKEN } });
    const server = fakeServer({ newGame: () => Promise.resolve(old), rematch: () => Promise.resolve(next) });
    const { ctrl } = makeCtrl(server);
    await ctrl.start(undefined);
    expect(rematchPrompt(ctrl.state!, ctrl.seats()!)).toBe('ask');
    ctrl.rematch();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(server.calls.at(-1)).toBe(`rematch ["${old.id}","${SENTE_TOKEN}"]`);
    expect(ctrl.state!.id).toBe(next.id);
    expect(ctrl.seats()!.tokenFor('sente')).toBe(NEW_TOKEN);
  });

  it("opens the result box for the other player's offer, and follows an accepted one", async () => {
    const old = finished();
    const next = spearState({ id: 'fedcba9876543210', mode: 'shared', seats: { gote: NEW_TOKEN } });
    const server = fakeServer({ newGame: () => Promise.resolve(old), rematch: () => Promise.resolve(next) });
    const { ctrl } = makeCtrl(server);
    ctrl.form.opponent = 'remote';
    await ctrl.start(undefined);
    ctrl.closeResult();
    ctrl.apply({ ...old, version: 4, rematch: { offeredBy: 'gote', declinedBy: null, cancelled: false, game: null } });
    expect(ctrl.resultShown).toBe(true);
    expect(rematchPrompt(ctrl.state!, ctrl.seats()!)).toBe('answer');
    // The other player's acceptance of an offer: this page asks for its seat and moves.
    ctrl.apply({ ...old, version: 5, rematch: { offeredBy: null, declinedBy: null, cancelled: false, game: next.id } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(server.calls.filter((call) => call.startsWith('rematch'))).toEqual([`rematch ["${old.id}","${SENTE_TOKEN}"]`]);
    expect(ctrl.state!.id).toBe(next.id);
    expect(ctrl.seats()!.sides).toEqual(['gote']);
  });

  it('says who offered, and shows a spectator the way to the new game', () => {
    const offered = finished({ rematch: { offeredBy: 'sente', declinedBy: null, cancelled: false, game: null } });
    localStorage.clear();
    const watching = Seating.of(offered);
    expect(rematchPrompt(offered, watching)).toBe('none');
    expect(rematchPrompt({ ...offered, rematch: { ...offered.rematch!, game: 'fedcba9876543210' } }, watching)).toBe('watch');
    expect(rematchPrompt({ ...offered, outcome: null }, watching)).toBe('none');
  });
});

describe('Record details', () => {
  it('opens filled with the game, saves through the server, and closes', async () => {
    const state = spearState({ headers: { sente: 'Ann', event: 'Cup' }, comments: ['Hello', 'there'] });
    const saved = spearState({ version: 2, headers: { sente: 'Ann', event: 'Final' } });
    const server = fakeServer({ newGame: () => Promise.resolve(state), editDetails: () => Promise.resolve(saved) });
    const { ctrl } = makeCtrl(server);
    await ctrl.start(undefined);
    ctrl.editDetails();
    expect(ctrl.details).toMatchObject({ sente: 'Ann', gote: '', event: 'Cup', comment: 'Hello\nthere' });
    ctrl.details!.event = 'Final';
    ctrl.saveDetails();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(server.calls.at(-1)).toContain('"event":"Final"');
    expect(ctrl.details).toBeUndefined();
    expect(ctrl.state!.headers.event).toBe('Final');
  });
});
