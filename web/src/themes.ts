// The page's looks, chosen by the player and remembered by the browser: a
// light or dark page (or the system's choice), the board's colours and the
// piece set. Page colours live in themes.css, keyed by <html data-theme>;
// the board palettes are data here, set as CSS custom properties on <html>
// so that one rule in the style sheet serves every palette.

import { isPieceSet, type PieceSet } from './variants';

/** Light, dark, or whatever the system prefers (`prefers-color-scheme`). */
export type ThemeChoice = 'auto' | 'light' | 'dark';
export const THEME_CHOICES: readonly { id: ThemeChoice; label: string }[] = [
  { id: 'auto', label: 'as the system' },
  { id: 'light', label: 'light' },
  { id: 'dark', label: 'dark' },
];

export type BoardPaletteId = 'kaya' | 'paper' | 'slate';

/**
 * The custom properties of a shogi board and its hands. `--wood`,
 * `--wood-dark` and `--grid` are the names style.css already uses.
 */
export const SHOGI_BOARD_VARIABLES = [
  /** The board's and the hands' surface. */
  '--wood',
  /** A darker shade of it, for edges and stands. */
  '--wood-dark',
  /** The faint stripes of the grain over the surface. */
  '--board-grain',
  /** The grid lines, the frame and the star points. */
  '--grid',
  /** The file and rank numbers and the hands' labels, which sit on the board's surface. */
  '--board-coords',
  /** The shadow under the board and the hands. */
  '--board-shadow',
] as const;

/** The custom properties of Pawns-Only Chess's board. */
export const CHESS_BOARD_VARIABLES = [
  '--chess-light',
  '--chess-dark',
  /** The frame around the squares, where the coordinates are. */
  '--chess-frame',
  '--chess-coords',
] as const;

export type ShogiBoardVariable = (typeof SHOGI_BOARD_VARIABLES)[number];
export type ChessBoardVariable = (typeof CHESS_BOARD_VARIABLES)[number];

/** One board palette: the shogi board's colours and matching ones for chess. */
export interface BoardPalette {
  id: BoardPaletteId;
  label: string;
  shogi: Record<ShogiBoardVariable, string>;
  chess: Record<ChessBoardVariable, string>;
}

/** Every board palette, the default (kaya) first. */
export const BOARD_PALETTES: readonly BoardPalette[] = [
  {
    id: 'kaya',
    label: 'kaya wood',
    shogi: {
      '--wood': '#e6bf72',
      '--wood-dark': '#c9994a',
      '--board-grain': 'rgba(120, 70, 10, 0.07)',
      '--grid': 'rgba(40, 25, 5, 0.85)',
      '--board-coords': '#3b2a1a',
      '--board-shadow': 'rgba(60, 35, 5, 0.35)',
    },
    chess: { '--chess-light': '#f0d9b5', '--chess-dark': '#b58863', '--chess-frame': '#6d4c2f', '--chess-coords': '#f0d9b5' },
  },
  {
    id: 'paper',
    label: 'paper',
    shogi: {
      '--wood': '#f3ecdc',
      '--wood-dark': '#ddd1b8',
      '--board-grain': 'rgba(90, 70, 40, 0.035)',
      '--grid': 'rgba(45, 38, 30, 0.8)',
      '--board-coords': '#4a3f33',
      '--board-shadow': 'rgba(40, 30, 15, 0.25)',
    },
    chess: { '--chess-light': '#eee7d6', '--chess-dark': '#bcae93', '--chess-frame': '#8c806b', '--chess-coords': '#eee7d6' },
  },
  {
    id: 'slate',
    label: 'blue-grey',
    shogi: {
      '--wood': '#93a6b7',
      '--wood-dark': '#71879b',
      '--board-grain': 'rgba(20, 35, 50, 0.05)',
      '--grid': 'rgba(14, 24, 34, 0.85)',
      '--board-coords': '#15212c',
      '--board-shadow': 'rgba(0, 10, 20, 0.45)',
    },
    chess: { '--chess-light': '#cdd7df', '--chess-dark': '#6e8496', '--chess-frame': '#33434f', '--chess-coords': '#cdd7df' },
  },
];

export const isBoardPaletteId = (text: string | null): text is BoardPaletteId =>
  BOARD_PALETTES.some((palette) => palette.id === text);

/** The palette of `id`, or the default one. */
export function boardPalette(id: BoardPaletteId): BoardPalette {
  return BOARD_PALETTES.find((palette) => palette.id === id) ?? BOARD_PALETTES[0];
}

/** What the player chose. */
export interface ThemeSettings {
  theme: ThemeChoice;
  board: BoardPaletteId;
  pieces: PieceSet;
}

export const DEFAULT_THEME_SETTINGS: ThemeSettings = { theme: 'auto', board: 'kaya', pieces: 'kanji' };

/**
 * The localStorage keys, one a setting. `koma.pieces` is the key app.ts
 * already keeps the piece set under, so both read the same choice.
 */
export const THEME_STORAGE_KEYS = { theme: 'koma.theme', board: 'koma.board', pieces: 'koma.pieces' } as const;

/** The part of Storage these settings need (a fake one in tests). */
export type SettingsStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The remembered settings; a missing or unknown value reads as the default. */
export function readThemeSettings(storage: SettingsStorage = localStorage): ThemeSettings {
  const get = (key: string): string | null => {
    try {
      return storage.getItem(key);
    } catch {
      // Storage may be refused (a private window, a sandboxed frame).
      return null;
    }
  };
  const theme = get(THEME_STORAGE_KEYS.theme);
  const board = get(THEME_STORAGE_KEYS.board);
  const pieces = get(THEME_STORAGE_KEYS.pieces);
  return {
    theme: theme === 'light' || theme === 'dark' ? theme : DEFAULT_THEME_SETTINGS.theme,
    board: isBoardPaletteId(board) ? board : DEFAULT_THEME_SETTINGS.board,
    pieces: isPieceSet(pieces) ? pieces : DEFAULT_THEME_SETTINGS.pieces,
  };
}

/** Remembers the settings; storage refused is not an error (they hold for this page). */
export function writeThemeSettings(settings: ThemeSettings, storage: SettingsStorage = localStorage): void {
  try {
    storage.setItem(THEME_STORAGE_KEYS.theme, settings.theme);
    storage.setItem(THEME_STORAGE_KEYS.board, settings.board);
    storage.setItem(THEME_STORAGE_KEYS.pieces, settings.pieces);
  } catch {
    // Nothing to do: the choice still applies until the page is reloaded.
  }
}

/** The part of <html> that applyTheme touches (a fake one in tests). */
export interface ThemeRoot {
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  style: Pick<CSSStyleDeclaration, 'setProperty'>;
}

/**
 * Shows the page in `settings`: `data-theme` forces light or dark (absent,
 * themes.css follows `prefers-color-scheme`); `data-board` and
 * `data-pieces` name the choices for any rule that wants them; the board
 * palette's custom properties are set on the element, where they override
 * the style sheets' defaults.
 */
export function applyTheme(settings: ThemeSettings, root: ThemeRoot = document.documentElement): void {
  if (settings.theme === 'auto') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', settings.theme);
  root.setAttribute('data-board', settings.board);
  root.setAttribute('data-pieces', settings.pieces);
  const palette = boardPalette(settings.board);
  for (const [name, value] of [...Object.entries(palette.shogi), ...Object.entries(palette.chess)])
    root.style.setProperty(name, value);
}
