// The page's language: English or Japanese, with i18next. The language is
// the one chosen on the page (remembered in localStorage), else the
// browser's (`navigator.language`), else English.

import i18next, { type i18n } from 'i18next';
import { en } from './en';
import { ja } from './ja';

export type Language = 'en' | 'ja';

/** The languages offered, each named in itself. */
export const LANGUAGES: [Language, string][] = [
  ['en', 'English'],
  ['ja', '日本語'],
];

const STORAGE_LANGUAGE = 'koma.language';

/** The message files by language. */
export const MESSAGES = { en, ja };

const isLanguage = (text: string | null | undefined): text is Language => text === 'en' || text === 'ja';

/** The language a page starts in: the one chosen before, else the browser's when it is one of ours. */
export function initialLanguage(stored: string | null | undefined, browser: string | undefined): Language {
  if (isLanguage(stored)) return stored;
  return browser?.toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

function storage(): Pick<Storage, 'getItem' | 'setItem'> | undefined {
  return typeof localStorage === 'undefined' ? undefined : localStorage;
}

const instance: i18n = i18next.createInstance();
void instance.init({
  resources: { en: { translation: en }, ja: { translation: ja } },
  lng: initialLanguage(storage()?.getItem(STORAGE_LANGUAGE), globalThis.navigator?.language),
  fallbackLng: 'en',
  // The resources are here: ready at once, no promise to wait for.
  initAsync: false,
  // snabbdom writes text, never HTML: nothing to escape.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** The words of `key` in the page's language, `params` filled in (`count` chooses a plural). */
export function t(key: string, params?: Record<string, string | number>): string {
  return String(instance.t(key, params));
}

/** Whether the page's language has words for `key`. */
export function hasWords(key: string): boolean {
  return instance.exists(key);
}

/** The page's language. */
export function language(): Language {
  return isLanguage(instance.language) ? instance.language : 'en';
}

/** The locale the page's language writes numbers in (1,080 in both). */
export function numberLocale(): string {
  return language() === 'ja' ? 'ja-JP' : 'en-US';
}

/** Changes the page's language, and remembers it. */
export function setLanguage(next: Language): void {
  void instance.changeLanguage(next);
  storage()?.setItem(STORAGE_LANGUAGE, next);
}
