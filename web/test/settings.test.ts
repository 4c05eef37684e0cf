import { afterEach, describe, expect, it } from 'vitest';
import type { Color, GameState, PlayedMove } from '../src/api';
import { Ctrl, type SoundControl } from '../src/ctrl';
import type { ThemeSettings } from '../src/themes';
import { setShogiNotation } from '../src/notation';
import { moveText } from '../src/view/move-text';
import { movesPanel } from '../src/view/layout';
import { settingsPanel } from '../src/view/settings';
import { byId, FakeLive, fakeServer, GOTE_TOKEN, hidden, spearState, text } from './fixtures';
import { arrows } from '../src/board-view';

/** 3a2b in shogi after 7g7f 3c3d 8h2b+, as the server sends it. */
const RECAPTURE: PlayedMove = {
  usi: '3a2b',
  notation: '☖同　銀(31)',
  notations: { japanese: '△同　銀', japaneseOrigin: '△同　銀(31)', western: 'Sx2b', usi: '3a2b', kitaoKawasaki: '銀x' },
  color: 'gote',
  position: 'lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 5',
  check: false,
};

/** A Spear move: no Western or Kitao–Kawasaki writing, and its seed's. */
const SPEAR_MOVE: PlayedMove = {
  usi: '5d5c',
  notation: '☗５三歩(54)',
  notations: { japanese: '▲５三歩', japaneseOrigin: '▲５三歩(54)', usi: '5d5c' },
  seed: 'p 51 52',
  color: 'sente',
  position: 'lbsgk/4p/P4/5/KGSBL w - 2',
  check: false,
};

afterEach(() => setShogiNotation('kif'));

describe('moveText: the notation chosen', () => {
  it('writes a shogi move in each notation the server sent', () => {
    const written = (['kif', 'japanese', 'western', 'kitaoKawasaki', 'usi'] as const).map((notation) => {
      setShogiNotation(notation);
      return moveText(RECAPTURE);
    });
    expect(written).toEqual(['☖同　銀(31)', '△同　銀', 'Sx2b', '銀x', '3a2b']);
  });

  it("falls back to the server's notation where a game has no such writing", () => {
    setShogiNotation('western');
    expect(moveText(SPEAR_MOVE)).toBe('☗５三歩(54)');
    expect(moveText({ ...RECAPTURE, notations: undefined })).toBe('☖同　銀(31)');
    setShogiNotation('usi');
    expect(moveText(SPEAR_MOVE)).toBe('5d5c');
  });

  it("writes Spear's seed notation where the list asks for it", () => {
    setShogiNotation('japanese');
    expect(moveText(SPEAR_MOVE, { spear: 'seed' })).toBe('p 51 52');
    expect(moveText(SPEAR_MOVE, { spear: 'japanese' })).toBe('▲５三歩');
  });
});

/** Sounds that record what the state told them. */
class FakeSounds implements SoundControl {
  heard: { previous: number | null; next: number; mySide: Color | null }[] = [];
  stops = 0;
  volume = 70;
  muted = false;
  lang = 'en';
  onState(previous: GameState | null, next: GameState, mySide: Color | null): void {
    this.heard.push({ previous: previous?.version ?? null, next: next.version, mySide });
  }
  stop(): void {
    this.stops++;
  }
  setVolume(volume: number): void {
    this.volume = volume;
  }
  setMuted(muted: boolean): void {
    this.muted = muted;
  }
  setLang(lang: string): void {
    this.lang = lang;
  }
}

/** A storage in memory. */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

function ctrlWith(sounds?: FakeSounds, storage = memoryStorage(), applied: ThemeSettings[] = [], server = fakeServer({})): Ctrl {
  return new Ctrl(
    {
      server,
      connect: () => new FakeLive(),
      showGameId: () => {},
      now: () => 1000,
      storage,
      sounds,
      applyTheme: (settings) => applied.push(settings),
    },
    () => {},
  );
}

describe('Ctrl: sounds, theme and notation', () => {
  it('tells the sounds of each state, for the one side this page plays', async () => {
    const local = spearState();
    const computer = spearState({ id: 'fedcba9876543210', opponent: { kind: 'computer', level: 1, color: 'sente' }, seats: { gote: GOTE_TOKEN } });
    const answers = [local, computer];
    const sounds = new FakeSounds();
    const ctrl = ctrlWith(sounds, memoryStorage(), [], fakeServer({ newGame: () => Promise.resolve(answers.shift()!) }));
    // Both seats here: no side of its own.
    await ctrl.newGame();
    ctrl.apply({ ...local, version: 2 });
    expect(sounds.heard).toEqual([
      { previous: null, next: 1, mySide: null },
      { previous: 1, next: 2, mySide: null },
    ]);
    // Another game, against the computer, with only Gote's seat: the
    // sounds stop, then hear it as Gote's, with no previous state.
    await ctrl.newGame();
    expect(sounds.stops).toBe(2);
    expect(sounds.heard[2]).toEqual({ previous: null, next: 1, mySide: 'gote' });
  });

  it('keeps the theme, the board and the pieces chosen, and puts them in force', () => {
    const storage = memoryStorage();
    const applied: ThemeSettings[] = [];
    const ctrl = ctrlWith(undefined, storage, applied);
    expect(ctrl.settings.theme).toEqual({ theme: 'auto', board: 'kaya', pieces: 'kanji' });
    ctrl.settings.setTheme({ ...ctrl.settings.theme, theme: 'dark', board: 'slate' });
    ctrl.settings.setPieceSet('two-kanji');
    expect(applied.at(-1)).toEqual({ theme: 'dark', board: 'slate', pieces: 'two-kanji' });
    expect(ctrlWith(undefined, storage).settings.theme).toEqual({ theme: 'dark', board: 'slate', pieces: 'two-kanji' });
    expect(storage.items.get('koma.pieces')).toBe('two-kanji');
  });

  it('keeps the notation chosen for the next visit', () => {
    const storage = memoryStorage();
    ctrlWith(undefined, storage).settings.setShogiNotation('western');
    setShogiNotation('kif');
    expect(ctrlWith(undefined, storage).settings.shogiNotation).toBe('western');
  });
});

describe('views: settings and notation menus', () => {
  it('offers sound controls only where the page has sound', () => {
    const sounds = new FakeSounds();
    const withSound = settingsPanel(ctrlWith(sounds));
    expect(byId(withSound, 'theme')).toBeDefined();
    expect(byId(withSound, 'board-colours')).toBeDefined();
    expect(byId(withSound, 'sound-volume')?.data?.props?.value).toBe('70');
    expect(byId(settingsPanel(ctrlWith()), 'sound-volume')).toBeUndefined();
  });

  it('offers the shogi notations in shogi, and not in Spear', () => {
    const ctrl = ctrlWith();
    ctrl.apply(spearState());
    expect(hidden(byId(movesPanel(ctrl), 'shogi-notation-options'))).toBe(true);
    ctrl.apply(spearState({ id: '1111111111111111', variant: 'shogi', start: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1' }));
    const panel = movesPanel(ctrl);
    expect(hidden(byId(panel, 'shogi-notation-options'))).toBe(false);
    expect(text(byId(panel, 'shogi-notation'))).toContain('Western (P-7f)');
  });
});

describe('Ctrl: arrows', () => {
  it("draws the review's better move beside the move played, by its player", () => {
    const ctrl = ctrlWith();
    const start = spearState();
    const moved = {
      ...SPEAR_MOVE,
      color: 'sente' as const,
    };
    const reviewed = {
      ...start,
      version: 2,
      ply: 1,
      moves: [moved],
      turn: 'gote' as const,
      review: {
        moves: [{ ply: 1, loss: 0.3, label: 'mistake' as const, accuracy: 40, better: { ...moved, usi: 'G*3c', notation: '☗３三金打' } }],
      },
    } as unknown as GameState;
    ctrl.apply(reviewed);
    expect(arrows(ctrl)).toEqual([{ usi: 'G*3c', kind: 'better', color: 'sente' }]);
    // At the start no move was played: nothing was better.
    ctrl.goTo(0);
    expect(arrows(ctrl)).toEqual([]);
    // A move that lost a hair, with no label, gets no arrow (nor any words).
    const slight = { ...reviewed, version: 3, review: { moves: [{ ...reviewed.review!.moves[0], loss: 0.01, label: undefined }] } } as unknown as GameState;
    ctrl.apply(slight);
    ctrl.goTo(1);
    expect(arrows(ctrl)).toEqual([]);
  });
});

describe('analysis lines', () => {
  it('open to show the whole line, and close to one row again', () => {
    const ctrl = ctrlWith();
    expect(ctrl.analysis.openLines.has(0)).toBe(false);
    ctrl.toggleAnalysisLine(0);
    expect(ctrl.analysis.openLines.has(0)).toBe(true);
    ctrl.toggleAnalysisLine(0);
    expect(ctrl.analysis.openLines.has(0)).toBe(false);
  });
});
