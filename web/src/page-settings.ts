// How the page looks and sounds, as the player chose and the browser keeps
// it: the language, the page's colours, the board and the piece set, the
// notation of shogi and Spear moves, and the sounds' volume. It knows
// nothing of the game; the state (ctrl.ts) holds one and the Settings,
// Pieces and Moves panels change it.

import { setLanguage, type Language } from './i18n';
import { currentShogiNotation, isShogiNotation, setShogiNotation, type ShogiNotation, type SpearNotation } from './notation';
import { DEFAULT_THEME_SETTINGS, readThemeSettings, writeThemeSettings, type ThemeSettings } from './themes';
import { isPieceSet, type PieceSet } from './variants';

const STORAGE_SPEAR_NOTATION = 'koma.spearNotation';
const STORAGE_SHOGI_NOTATION = 'koma.notation';

/** The sounds as the settings change them (sound/index.ts's `Sounds`). */
export interface SoundSettings {
  readonly volume: number;
  readonly muted: boolean;
  setVolume(volume: number): void;
  setMuted(muted: boolean): void;
  setLang(lang: Language): void;
}

/** What the settings need from the page. */
export interface SettingsDeps {
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  /** The board's sounds; none in the unit tests. */
  sounds?: SoundSettings;
  /** Puts the page's colours, board and pieces in force (themes.ts's `applyTheme`). */
  applyTheme?: (settings: ThemeSettings) => void;
}

export class PageSettings {
  /** How Spear's moves are written: as its seed does, or in Japanese. */
  spearNotation: SpearNotation;
  /** The page's colours, the board's and the piece set (themes.ts). */
  theme: ThemeSettings;

  constructor(
    private readonly deps: SettingsDeps,
    /** Draws the page again. */
    private readonly redraw: () => void,
  ) {
    const storage = deps.storage;
    this.theme = storage ? readThemeSettings(storage) : { ...DEFAULT_THEME_SETTINGS };
    const notation = storage?.getItem(STORAGE_SHOGI_NOTATION);
    if (isShogiNotation(notation)) setShogiNotation(notation);
    this.spearNotation = storage?.getItem(STORAGE_SPEAR_NOTATION) === 'japanese' ? 'japanese' : 'seed';
  }

  setSpearNotation(notation: SpearNotation): void {
    this.spearNotation = notation;
    this.deps.storage?.setItem(STORAGE_SPEAR_NOTATION, notation);
    this.redraw();
  }

  /** Changes the page's language (remembered by the browser), the byoyomi voice's too. */
  setLanguage(next: Language): void {
    setLanguage(next);
    this.deps.sounds?.setLang(next);
    this.redraw();
  }

  /** The piece set chosen. */
  get pieceSet(): PieceSet {
    return this.theme.pieces;
  }

  setPieceSet(set: PieceSet): void {
    this.setTheme({ ...this.theme, pieces: isPieceSet(set) ? set : 'kanji' });
  }

  /** Changes the page's colours, the board's or the piece set, and keeps the choice. */
  setTheme(settings: ThemeSettings): void {
    this.theme = settings;
    if (this.deps.storage) writeThemeSettings(settings, this.deps.storage);
    this.deps.applyTheme?.(settings);
    this.redraw();
  }

  /** How shogi and minishogi moves are written. */
  get shogiNotation(): ShogiNotation {
    return currentShogiNotation();
  }

  setShogiNotation(notation: ShogiNotation): void {
    setShogiNotation(notation);
    this.deps.storage?.setItem(STORAGE_SHOGI_NOTATION, notation);
    this.redraw();
  }

  /** The sounds' volume (0 to 100) and mute, when the page has sound. */
  get sound(): { volume: number; muted: boolean } | undefined {
    const sounds = this.deps.sounds;
    return sounds && { volume: sounds.volume, muted: sounds.muted };
  }

  setVolume(volume: number): void {
    this.deps.sounds?.setVolume(volume);
    this.redraw();
  }

  setMuted(muted: boolean): void {
    this.deps.sounds?.setMuted(muted);
    this.redraw();
  }
}
