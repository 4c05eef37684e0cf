import { afterEach, describe, expect, it } from 'vitest';
import { initialLanguage, language, MESSAGES, setLanguage } from '../src/i18n';
import { fakeServer, makeCtrl, spearState, text, byId } from './fixtures';
import { resultView } from '../src/view/layout';
import { controlsView } from '../src/view/controls';
import { messageText } from '../src/view/status';
import { outcomeText } from '../src/view/outcome';
import { sideName } from '../src/sides';

/** Every key of a message file, plurals (`_one`, `_other`) counted as one key. */
function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key.replace(/_(zero|one|two|few|many|other)$/, '')}`] : keys(value as object, `${prefix}${key}.`),
  );
}

/** The `{{name}}` a message fills in. */
const placeholders = (text: string): string[] => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

function leaves(messages: object, prefix = ''): [string, string][] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value as object, `${prefix}${key}.`),
  );
}

afterEach(() => setLanguage('en'));

describe('message files', () => {
  it('have the same keys in English and Japanese', () => {
    const english = new Set(keys(MESSAGES.en));
    const japanese = new Set(keys(MESSAGES.ja));
    expect([...english].filter((key) => !japanese.has(key)), 'missing in ja.ts').toEqual([]);
    expect([...japanese].filter((key) => !english.has(key)), 'missing in en.ts').toEqual([]);
  });

  it('fill in only what English fills in, and no message is empty', () => {
    const english = new Map(leaves(MESSAGES.en).map(([key, value]) => [key.replace(/_(one|other)$/, ''), value]));
    for (const [key, value] of leaves(MESSAGES.ja)) {
      expect(value.trim(), key).not.toBe('');
      const source = english.get(key.replace(/_(one|other)$/, ''))!;
      for (const name of placeholders(value)) expect(placeholders(source).concat('count'), `${key} fills {{${name}}}`).toContain(name);
    }
  });
});

describe('the language', () => {
  it('is the one chosen before, else the browser’s when Japanese, else English', () => {
    expect(initialLanguage('ja', 'en-US')).toBe('ja');
    expect(initialLanguage(null, 'ja-JP')).toBe('ja');
    expect(initialLanguage(null, 'de-DE')).toBe('en');
    expect(initialLanguage('en', 'ja')).toBe('en');
    expect(initialLanguage('xx', undefined)).toBe('en');
  });

  it('is remembered when switched on the page', () => {
    const { ctrl } = makeCtrl(fakeServer({}));
    ctrl.settings.setLanguage('ja');
    expect(language()).toBe('ja');
    expect(localStorage.getItem('koma.language')).toBe('ja');
  });
});

describe('the page in Japanese', () => {
  const finished = () => {
    const state = spearState({ variant: 'shogi' });
    const { ctrl } = makeCtrl(fakeServer({}));
    ctrl.apply(state);
    ctrl.apply({ ...state, version: 2, outcome: { winner: 'gote', reason: 'resignation', message: 'Gote wins: Sente resigned.' } });
    return ctrl;
  };

  it('names the sides 先手 and 後手, and the winner of a resigned game', () => {
    setLanguage('ja');
    expect(sideName('shogi', 'sente')).toBe('先手 ☗');
    const box = resultView(finished());
    expect(text(byId(box, 'result-title'))).toBe('後手 ☖の勝ち！');
    expect(text(byId(box, 'result-detail'))).toBe('後手 ☖の勝ち：先手 ☗が投了しました。');
  });

  it('labels the buttons 反転, 待った and 投了', () => {
    setLanguage('ja');
    const controls = controlsView(finished());
    expect([text(byId(controls, 'flip')), text(byId(controls, 'undo')), text(byId(controls, 'resign'))]).toEqual(['反転', '待った', '投了']);
  });

  it('keeps the server’s sentence of an ending it has no words for', () => {
    setLanguage('ja');
    const state = spearState({ outcome: { winner: 'sente', reason: 'something-new', message: 'Black wins somehow.' } });
    expect(outcomeText(state)).toBe('Black wins somehow.');
  });

  it('says a refusal with a known code in Japanese, and shows any other as the server wrote it', () => {
    setLanguage('ja');
    expect(messageText({ kind: 'error', text: "That seat token is not one of this game's.", code: 'bad-token' })).toBe(
      'この席のトークンはこの対局のものではありません。',
    );
    expect(messageText({ kind: 'error', text: 'Illegal move: 5a5b.' })).toBe('Illegal move: 5a5b.');
    setLanguage('en');
    expect(messageText({ kind: 'error', text: "That seat token is not one of this game's.", code: 'bad-token' })).toBe(
      "That seat token is not one of this game's.",
    );
  });

  it('counts in the status line without English plurals', () => {
    setLanguage('ja');
    expect(messageText({ kind: 'info', key: 'message.opened', params: { what: 'a.kif', count: 1 } })).toBe('a.kifを開きました：1手。› か → で進めます。');
    setLanguage('en');
    expect(messageText({ kind: 'info', key: 'message.opened', params: { what: 'a.kif', count: 1 } })).toBe('Opened a.kif: 1 move. Step through with › or →.');
  });
});
