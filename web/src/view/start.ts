// The start page, shown at `/` with no game named: what Koma is, and a card
// for each game with its start position, a line on it, Play (a new game of
// it, with the new-game form's other choices) and Rules (its rules page).

import { h, type VNode } from 'snabbdom';
import type { Ctrl } from '../ctrl';
import { t } from '../i18n';
import { playHref, rulesHref } from '../route';
import { VARIANT_IDS, type VariantId } from '../variants';

/** The games the start page offers, in its order; each has a rules page in every language. */
export const START_GAMES: readonly VariantId[] = VARIANT_IDS;

/** The picture of a game's start position (docs/rules/<game>-start.svg, copied by the build). */
export const startPicture = (game: VariantId): string => `rules/${game}-start.svg`;

function gameCard(game: VariantId): VNode {
  return h('article.game-card', { dataset: { game } }, [
    h('a.card-picture', { attrs: { href: playHref(game), tabindex: -1, 'aria-hidden': 'true' } }, [
      h('img', { attrs: { src: startPicture(game), alt: t('start.pictureAlt', { game: t(`variantShort.${game}`) }), width: 182, height: 204 } }),
    ]),
    h('h2', t(`variant.${game}`)),
    h('p.card-line', t(`start.line.${game}`)),
    h('div.card-actions', [
      h('a.button.play-link', { attrs: { href: playHref(game) } }, t('start.play')),
      h('a.button.rules-link', { attrs: { href: rulesHref(game) } }, t('start.rules')),
    ]),
  ]);
}

/** The way back to the game this page showed before, when there was one. */
function backToGame(ctrl: Ctrl): VNode | undefined {
  const state = ctrl.state;
  if (!state) return undefined;
  return h('p.back-to-game', [
    h('a#back-to-game', { attrs: { href: `#/game/${state.id}` } }, t('start.backToGame', { game: t(`variantShort.${state.variant}`), ply: state.ply })),
  ]);
}

export function startPage(ctrl: Ctrl): VNode {
  return h('main#start.start-page', [
    h('section.intro', [h('p.intro-lead', t('start.lead')), h('p.intro-more', t('start.more'))]),
    h('div.game-cards', START_GAMES.map(gameCard)),
    backToGame(ctrl),
  ]);
}
