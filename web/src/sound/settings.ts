// The sound settings a person chose, kept in localStorage so that the next
// visit sounds the same.
//
// SPDX-License-Identifier: GPL-3.0-or-later

/** Where the settings are kept: localStorage, or a test's map. */
export type SettingsStore = Pick<Storage, 'getItem' | 'setItem'>;

export interface SoundSettings {
  /** 0 to 100. */
  volume: number;
  muted: boolean;
}

const STORAGE_VOLUME = 'koma.sound.volume';
const STORAGE_MUTED = 'koma.sound.muted';

/** What a first visit hears: loud enough, below full. */
export const DEFAULT_SETTINGS: SoundSettings = { volume: 70, muted: false };

/** A volume made whole and kept within 0–100. */
export function clampVolume(volume: number): number {
  return Number.isFinite(volume) ? Math.min(100, Math.max(0, Math.round(volume))) : DEFAULT_SETTINGS.volume;
}

/**
 * The gain of a volume: its square, so that the slider's middle sounds
 * about half as loud (loudness follows the gain's logarithm, not the gain).
 */
export function volumeGain(volume: number): number {
  const share = clampVolume(volume) / 100;
  return share * share;
}

/** The page's localStorage, or null where it cannot be reached (a sandbox, Node). */
export function browserStore(): SettingsStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The kept settings, the defaults for any missing or unreadable. */
export function loadSettings(store: SettingsStore | null): SoundSettings {
  try {
    const volume = store?.getItem(STORAGE_VOLUME);
    const muted = store?.getItem(STORAGE_MUTED);
    return {
      volume: volume == null || volume === '' ? DEFAULT_SETTINGS.volume : clampVolume(Number(volume)),
      muted: muted == null ? DEFAULT_SETTINGS.muted : muted === 'true',
    };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

/** Keeps the settings; a full or refused storage only loses them for next time. */
export function saveSettings(store: SettingsStore | null, settings: SoundSettings): void {
  try {
    store?.setItem(STORAGE_VOLUME, String(settings.volume));
    store?.setItem(STORAGE_MUTED, String(settings.muted));
  } catch {
    // The sound still follows the settings on this page.
  }
}
