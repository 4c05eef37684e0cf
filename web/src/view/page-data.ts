// What the page publishes on <body data-…> for its browser tests and its
// style (the game, the move shown, the seats, the clock…), and its title.

import type { Ctrl } from '../ctrl';
import { t } from '../i18n';
import { arrows } from '../board-view';
import { rematchPrompt } from '../rematch';

/** The data attributes of <body> for the state. */
export function pageData(ctrl: Ctrl): Record<string, string> {
  const state = ctrl.state;
  const page = { page: ctrl.page, rules: ctrl.page === 'rules' ? ctrl.rulesGame : '' };
  if (!state) return page;
  const seating = ctrl.seats()!;
  return {
    ...page,
    gameId: state.id,
    variant: state.variant,
    ply: String(state.ply),
    version: String(state.version),
    shownPly: String(ctrl.shown()),
    mateStep: ctrl.mate.shownStep(),
    preview: ctrl.preview ?? '',
    turn: state.turn,
    outcome: state.outcome ? state.outcome.reason : '',
    computer: state.opponent.kind === 'computer' ? state.opponent.color : '',
    orientation: ctrl.orientation,
    mode: state.mode,
    seats: seating.sides.join(' '),
    takeback: state.takeback ?? '',
    clock: state.clock ? (state.clock.running ?? 'standing') : '',
    analysis: ctrl.analysis.on ? (ctrl.analysis.analysis?.status ?? 'asked') : '',
    review: ctrl.review.status(state),
    premove: ctrl.premove?.usi ?? '',
    learn: ctrl.learn.active() ? ctrl.learn.status : '',
    rematch: rematchPrompt(state, seating),
    arrows: arrows(ctrl)
      .map((arrow) => `${arrow.kind}:${arrow.usi}`)
      .join(' '),
  };
}

/** The page's title: the game shown, or its rules. */
export function pageTitle(ctrl: Ctrl): string {
  if (ctrl.page === 'start') return 'Koma';
  if (ctrl.page === 'rules') return `Koma · ${t('rules.title', { game: t(`variantShort.${ctrl.rulesGame}`) })}`;
  const variant = ctrl.variantInfo();
  return variant ? `Koma · ${t(`variant.${variant.id}`)}` : 'Koma';
}
