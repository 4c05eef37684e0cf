import { describe, expect, it } from 'vitest';
import { gameInfo, gameInfoRows } from '../src/view/game-info';
import { hidden, spearState, text } from './fixtures';

describe('game info: what a record says of its game', () => {
  it('shows the players, event, date and time control the record gives, in order', () => {
    const state = spearState({
      variant: 'shogi',
      headers: { sente: '羽生善治', gote: '藤井聡太', event: '王将戦', startTime: '2024/01/07 9:00', timeControl: '8時間', other: [['備考', 'x']] },
    });
    expect(gameInfoRows(state)).toEqual([
      ['Sente ☗', '羽生善治'],
      ['Gote ☖', '藤井聡太'],
      ['Event', '王将戦'],
      ['Date', '2024/01/07 9:00'],
      ['Time', '8時間'],
    ]);
    expect(hidden(gameInfo(state))).toBe(false);
  });

  it('names the handicap and its players as the handicap game does', () => {
    const state = spearState({
      variant: 'shogi',
      handicap: { name: 'two-piece', title: 'Two pieces', japanese: '二枚落ち' },
      headers: { gote: 'Teacher' },
    });
    expect(gameInfoRows(state)).toEqual([
      ['Uwate ☖', 'Teacher'],
      ['Handicap', 'Two pieces'],
    ]);
  });

  it('shows nothing for a game that says nothing, blank fields included', () => {
    const quiet = gameInfo(spearState({ headers: { event: '  ' } }));
    expect(hidden(quiet)).toBe(true);
    expect(text(quiet)).toBe('');
  });
});
