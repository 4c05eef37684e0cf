import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BOARD_PALETTES,
  CHESS_BOARD_VARIABLES,
  DEFAULT_THEME_SETTINGS,
  SHOGI_BOARD_VARIABLES,
  THEME_CHOICES,
  THEME_STORAGE_KEYS,
  applyTheme,
  readThemeSettings,
  writeThemeSettings,
  type SettingsStorage,
  type ThemeRoot,
  type ThemeSettings,
} from '../src/themes';
import { PIECE_SETS } from '../src/variants';

const COLOUR = /^(#[0-9a-f]{6}|rgba\(\d{1,3}, \d{1,3}, \d{1,3}, (0|1|0?\.\d+)\))$/;

/** A Storage kept in a Map. */
function fakeStorage(initial: Record<string, string> = {}): SettingsStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
  };
}

/** The custom properties each block of a style sheet sets, by its selector. */
function customProperties(css: string): Map<string, Map<string, string>> {
  const blocks = new Map<string, Map<string, string>>();
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const match of withoutComments.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selector = match[1].replace(/@media[^{]*$/, '').trim().replace(/\s+/g, ' ');
    const properties = new Map<string, string>();
    for (const declaration of match[2].matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) properties.set(declaration[1], declaration[2].trim());
    if (properties.size > 0) blocks.set(selector, properties);
  }
  return blocks;
}

const css = readFileSync(new URL('../src/themes.css', import.meta.url), 'utf8');
const blocks = customProperties(css);

describe('board palettes', () => {
  it('are at least three, each defining every variable with a colour', () => {
    expect(BOARD_PALETTES.length).toBeGreaterThanOrEqual(3);
    expect(new Set(BOARD_PALETTES.map((palette) => palette.id)).size).toBe(BOARD_PALETTES.length);
    for (const palette of BOARD_PALETTES) {
      expect(Object.keys(palette.shogi).sort(), palette.id).toEqual([...SHOGI_BOARD_VARIABLES].sort());
      expect(Object.keys(palette.chess).sort(), palette.id).toEqual([...CHESS_BOARD_VARIABLES].sort());
      for (const value of [...Object.values(palette.shogi), ...Object.values(palette.chess)])
        expect(value, palette.id).toMatch(COLOUR);
    }
  });

  it('start from themes.css, whose board defaults are the first palette', () => {
    const root = blocks.get(':root');
    const first = BOARD_PALETTES[0];
    for (const [name, value] of [...Object.entries(first.shogi), ...Object.entries(first.chess)])
      expect(root?.get(name), name).toBe(value);
  });
});

describe('page themes', () => {
  const light = blocks.get(':root');
  const dark = blocks.get(":root[data-theme='dark']");
  const system = blocks.get(":root:not([data-theme='light'])");
  const boardVariables = new Set<string>([...SHOGI_BOARD_VARIABLES, ...CHESS_BOARD_VARIABLES]);

  it('define the same page variables light and dark', () => {
    expect(light && dark && system).toBeTruthy();
    const pageOfLight = [...(light?.keys() ?? [])].filter((name) => !boardVariables.has(name)).sort();
    expect(pageOfLight.length).toBeGreaterThan(20);
    expect([...(dark?.keys() ?? [])].sort()).toEqual(pageOfLight);
  });

  it('are dark alike whether forced or the system prefers it', () => {
    expect(system && Object.fromEntries(system)).toEqual(dark && Object.fromEntries(dark));
    expect(css).toMatch(/@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme='light'\]\)/);
  });

  it('use only variables the sheet defines', () => {
    const used = new Set([...css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/var\((--[\w-]+)\)/g)].map((match) => match[1]));
    for (const name of used) expect(light?.has(name), name).toBe(true);
  });
});

describe('theme settings', () => {
  it('read as the defaults when nothing is stored or the stored values are unknown', () => {
    expect(readThemeSettings(fakeStorage())).toEqual(DEFAULT_THEME_SETTINGS);
    const stale = fakeStorage({ [THEME_STORAGE_KEYS.theme]: 'sepia', [THEME_STORAGE_KEYS.board]: 'marble', [THEME_STORAGE_KEYS.pieces]: 'emoji' });
    expect(readThemeSettings(stale)).toEqual(DEFAULT_THEME_SETTINGS);
  });

  it('round-trip through storage, every choice', () => {
    for (const { id: theme } of THEME_CHOICES)
      for (const { id: board } of BOARD_PALETTES)
        for (const { id: pieces } of PIECE_SETS) {
          const storage = fakeStorage();
          const settings: ThemeSettings = { theme, board, pieces };
          writeThemeSettings(settings, storage);
          expect(readThemeSettings(storage)).toEqual(settings);
        }
  });

  it("share the piece set's key with the page's existing choice", () => {
    expect(readThemeSettings(fakeStorage({ 'koma.pieces': 'letters' })).pieces).toBe('letters');
  });

  it('survive a storage that refuses', () => {
    const refusing: SettingsStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readThemeSettings(refusing)).toEqual(DEFAULT_THEME_SETTINGS);
    expect(() => writeThemeSettings(DEFAULT_THEME_SETTINGS, refusing)).not.toThrow();
  });
});

describe('applyTheme', () => {
  /** An <html> that records what is set on it. */
  function fakeRoot(): ThemeRoot & { attributes: Map<string, string>; properties: Map<string, string> } {
    const attributes = new Map<string, string>();
    const properties = new Map<string, string>();
    return {
      attributes,
      properties,
      setAttribute: (name, value) => void attributes.set(name, value),
      removeAttribute: (name) => void attributes.delete(name),
      style: { setProperty: (name: string, value: string | null) => void properties.set(name, value ?? '') },
    };
  }

  it('forces light or dark, or leaves it to the system', () => {
    const root = fakeRoot();
    applyTheme({ ...DEFAULT_THEME_SETTINGS, theme: 'dark' }, root);
    expect(root.attributes.get('data-theme')).toBe('dark');
    applyTheme({ ...DEFAULT_THEME_SETTINGS, theme: 'light' }, root);
    expect(root.attributes.get('data-theme')).toBe('light');
    applyTheme({ ...DEFAULT_THEME_SETTINGS, theme: 'auto' }, root);
    expect(root.attributes.has('data-theme')).toBe(false);
  });

  it("sets every variable of the chosen board and names the choices", () => {
    for (const palette of BOARD_PALETTES) {
      const root = fakeRoot();
      applyTheme({ theme: 'auto', board: palette.id, pieces: 'international' }, root);
      expect(Object.fromEntries(root.properties)).toEqual({ ...palette.shogi, ...palette.chess });
      expect(root.attributes.get('data-board')).toBe(palette.id);
      expect(root.attributes.get('data-pieces')).toBe('international');
    }
  });
});
