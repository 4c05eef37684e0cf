// A game's rules page (`#/rules/<game>`): the rules the build made from
// docs/rules/ in the page's language, with a link to every other game's
// rules and a Play button for this one.

import { h, type VNode } from 'snabbdom';
import type { Ctrl } from '../ctrl';
import { language, t } from '../i18n';
import { playHref, rulesHref, startHref } from '../route';
import { START_GAMES } from './start';

export function rulesPage(ctrl: Ctrl): VNode {
  const game = ctrl.rulesGame;
  const text = ctrl.rules.text(language(), game);
  const body =
    text.status === 'ready'
      ? h('article#rules-text.rules-text', { key: `${language()}/${game}`, props: { innerHTML: text.html } })
      : h('p#rules-text.rules-text.rules-wait', { class: { error: text.status === 'failed' } }, t(text.status === 'failed' ? 'rules.failed' : 'rules.loading'));
  return h('main#rules.rules-page', { dataset: { game, ready: String(text.status === 'ready') } }, [
    h('nav.rules-nav', { attrs: { 'aria-label': t('rules.others') } }, [
      h('a.back-start', { attrs: { href: startHref } }, t('rules.back')),
      ...START_GAMES.map((other) =>
        h('a.rules-tab', { attrs: { href: rulesHref(other), ...(other === game ? { 'aria-current': 'page' } : {}) }, class: { current: other === game } }, t(`variantShort.${other}`)),
      ),
      h('a.button.play-link', { attrs: { href: playHref(game) } }, t('rules.play', { game: t(`variantShort.${game}`) })),
    ]),
    body,
  ]);
}
