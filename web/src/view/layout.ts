// The whole page as a function of the state: the top bar (with the
// new-game form on the board's page), then the start page, a game's rules,
// or the game (status, board, controls, takeback), the panels beside it,
// and the result box.

import { h, type VNode } from 'snabbdom';
import type { Ctrl } from '../ctrl';
import type { Ground } from '../ground';
import { language, LANGUAGES, t } from '../i18n';
import { sideName } from '../sides';
import { outcomeText } from './outcome';
import { rematchView } from './rematch';
import { analysisPanel } from './analysis';
import { boardArea } from './board';
import { controlsView, takebackView } from './controls';
import { select } from './form';
import { moveList, moveNotes } from './moves';
import { newGameForm } from './newgame';
import { reviewPanel } from './review';
import { learnPanel } from './learn';
import { reviewGraphBox } from './review-graph';
import { invitePanel, piecesPanel, recordPanel } from './side-panels';
import { settingsPanel } from './settings';
import { gameInfo } from './game-info';
import { detailsEditor } from './details';
import { isShogiNotation, SHOGI_NOTATIONS } from '../notation';
import { statusView } from './status';
import { startHref } from '../route';
import { rulesPage } from './rules';
import { startPage } from './start';

/** The Moves panel, with the choice of notation: Spear's, or the other shogi games'. */
export function movesPanel(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const shogiLike = state?.variant === 'shogi' || state?.variant === 'minishogi';
  return h('section.panel', [
    h('h2', t('moves.title')),
    gameInfo(state),
    detailsEditor(ctrl),
    h('label#shogi-notation-options.notation-options', { props: { hidden: !shogiLike } }, [
      t('moves.notation'),
      select(
        'shogi-notation',
        ctrl.settings.shogiNotation,
        SHOGI_NOTATIONS.map((notation) => [notation, t(`moves.notations.${notation}`)]),
        (value) => {
          if (isShogiNotation(value)) ctrl.settings.setShogiNotation(value);
        },
        { title: t('moves.shogiNotationTitle') },
      ),
    ]),
    h('label#notation-options.notation-options', { props: { hidden: state?.variant !== 'spear' } }, [
      t('moves.notation'),
      select(
        'notation',
        ctrl.settings.spearNotation,
        [['seed', t('moves.seed')], ['japanese', t('moves.japanese')]],
        (value) => ctrl.settings.setSpearNotation(value === 'japanese' ? 'japanese' : 'seed'),
        { title: t('moves.notationTitle') },
      ),
    ]),
    state ? moveList(state, ctrl.shown(), (ply) => ctrl.goTo(ply), { spear: ctrl.settings.spearNotation }) : h('ol#move-list.move-list'),
    state ? moveNotes(state, ctrl.shown()) : h('div#move-notes.move-notes', { props: { hidden: true } }),
  ]);
}

/** The box that names the winner and why, once a game ends here. */
export function resultView(ctrl: Ctrl): VNode {
  const state = ctrl.state;
  const outcome = state?.outcome;
  const shown = ctrl.resultShown && !!outcome;
  const title = outcome && state ? (outcome.winner ? t('result.wins', { side: sideName(state.variant, outcome.winner, state.handicap) }) : t('result.draw')) : '';
  const detail = state ? outcomeText(state) : '';
  return h(
    'div#result.result',
    {
      props: { hidden: !shown },
      hook: {
        // The box takes the focus when it opens, so that Enter or Escape answers it.
        postpatch: (old, vnode) => {
          if (shown && old.data?.props?.hidden) (vnode.elm as HTMLElement).querySelector<HTMLElement>('#result-close')?.focus();
        },
      },
    },
    [
      h('div.result-box', { attrs: { role: 'alertdialog', 'aria-labelledby': 'result-title' } }, [
        h('h2#result-title', title),
        h('p#result-detail', detail),
        ...(state && outcome ? rematchView(ctrl, state) : []),
        h('button#result-close', { attrs: { type: 'button' }, on: { click: () => ctrl.closeResult() } }, t('result.close')),
        h('button#result-new', { attrs: { type: 'button' }, on: { click: () => ctrl.newGameAfterResult() } }, t('result.newGame')),
      ]),
    ],
  );
}

/**
 * Keeps `--top-h` on the page at the top bar's height, which the board's
 * size leaves room for (the bar wraps to more rows on narrower windows).
 */
function followHeight(vnode: VNode): void {
  const element = vnode.elm as HTMLElement;
  const root = document.documentElement;
  const follow = (): void => root.style.setProperty('--top-h', `${element.offsetHeight}px`);
  follow();
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(follow).observe(element);
}

/** The choice of the page's language, remembered by the browser. */
export function languageSwitch(ctrl: Ctrl): VNode {
  return h('label.language', [
    t('app.language') + ' ',
    select('language', language(), LANGUAGES, (value) => ctrl.settings.setLanguage(value === 'ja' ? 'ja' : 'en'), { title: t('app.languageTitle') }),
  ]);
}

/** The top bar: Koma's name, a link to the start page, the language, and on the board's page the new-game form. */
function topBar(ctrl: Ctrl): VNode {
  return h('header.top', { hook: { insert: followHeight } }, [
    h('div.top-title', [
      h('h1', [h('a#home.home', { attrs: { href: startHref, title: t('start.home') } }, ['Koma ', h('span.kanji', '駒')])]),
      languageSwitch(ctrl),
    ]),
    ...(ctrl.page === 'board' ? [newGameForm(ctrl)] : []),
  ]);
}

/** The page, at the moment `now` (the clocks count down to it). */
export function view(ctrl: Ctrl, ground: Ground, now: number): VNode {
  if (ctrl.page !== 'board') return h('div#app', { class: { 'page-info': true } }, [topBar(ctrl), ctrl.page === 'start' ? startPage(ctrl) : rulesPage(ctrl)]);
  return h('div#app', [
    topBar(ctrl),
    // The board and the buttons under it fill the window's height; what
    // changes in height (the status, a prompt, the moves) stands beside it,
    // at the top, so that nothing pushes the board or a prompt out of view.
    h('main.layout', [
      h('section.play', [boardArea(ctrl, ground, now), controlsView(ctrl)]),
      h('aside.side', [
        learnPanel(ctrl),
        h('section.panel.game-status', [statusView(ctrl), takebackView(ctrl)]),
        movesPanel(ctrl),
        invitePanel(ctrl),
        analysisPanel(ctrl),
        reviewPanel(ctrl),
        recordPanel(ctrl),
        piecesPanel(ctrl),
        settingsPanel(ctrl),
      ]),
      // Under the board on a wide window, after the panels on a phone (style.css).
      reviewGraphBox(ctrl),
    ]),
    resultView(ctrl),
  ]);
}
