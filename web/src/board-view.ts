// What the board shows, derived from the page's state (ctrl.ts): the
// position (the game's, an earlier one, a variation, the Game menu's
// preview, or a mistake to learn from), who may move on it, and the arrows
// drawn over it. Pure reads of the state; the view (view/board.ts) hands
// them to the board widgets.

import type { Color, GameState } from './api';
import type { Arrow, BoardView } from './board';
import type { Ctrl } from './ctrl';
import { colorsOf } from './sides';
import { VARIANTS, type VariantInfo } from './variants';

/** What the board shows while the Game menu previews another game: its start position, its first player at the bottom. */
export function previewBoard(ctrl: Ctrl): { variant: VariantInfo; orientation: Color; view: BoardView } | undefined {
  if (!ctrl.preview || !ctrl.state) return undefined;
  const variant = VARIANTS[ctrl.preview];
  const [first, second] = colorsOf(variant.id);
  const view: BoardView = { position: variant.start, lastMove: null, check: false, turn: first, legalMoves: [], movable: 'none' };
  // Spear is drawn as its seed draws it, White (the second mover) at the bottom.
  return { variant, orientation: variant.id === 'spear' ? second : first, view };
}

/** What the board shows: a variation, an earlier position, or the game with what this page may play. */
export function boardView(ctrl: Ctrl): BoardView | undefined {
  const state = ctrl.state;
  if (!state) return undefined;
  const preview = previewBoard(ctrl);
  if (preview) return preview.view;
  const learning = learnView(ctrl, state);
  if (learning) return learning;
  const variation = ctrl.mate.variation() ?? ctrl.analysis.variationView(state.variant);
  if (variation) return variation;
  const shown = ctrl.shown();
  if (shown < state.ply)
    return {
      position: shown === 0 ? state.start : state.moves[shown - 1].position,
      lastMove: shown === 0 ? null : state.moves[shown - 1].usi,
      check: false,
      turn: ctrl.turnAt(shown),
      legalMoves: [],
      movable: 'none',
    };
  const sides = ctrl.seats()?.sides ?? [];
  return {
    position: state.position,
    lastMove: state.lastMove,
    check: state.check,
    turn: state.turn,
    legalMoves: state.outcome ? [] : state.legalMoves,
    movable: sides.length === 0 ? 'none' : sides.length === 1 ? sides[0] : 'both',
    premovable: !!ctrl.premoveSide(),
  };
}

/** The board while learning from mistakes: the position before the mistake, movable by the side learning while a move is wanted. */
function learnView(ctrl: Ctrl, state: GameState): BoardView | undefined {
  const learn = ctrl.learn;
  const ply = learn.beforePly();
  if (!learn.active() || ply === undefined) return undefined;
  const exercise = learn.current()!;
  if (learn.status === 'good' && learn.tried === exercise.better?.usi && exercise.better)
    return { position: exercise.better.position, lastMove: exercise.better.usi, check: exercise.better.check, turn: ctrl.turnAt(ply + 1), legalMoves: [], movable: 'none' };
  // While a move is judged, or found, the widget keeps it where the player put it.
  const keep = learn.status === 'checking' || learn.status === 'good';
  return {
    position: ply === 0 ? state.start : state.moves[ply - 1].position,
    lastMove: ply === 0 ? null : state.moves[ply - 1].usi,
    check: ply === 0 ? false : state.moves[ply - 1].check,
    turn: ctrl.turnAt(ply),
    legalMoves: learn.legal,
    movable: learn.movable() || keep ? learn.side! : 'none',
  };
}

/**
 * The arrows on the board, none while a mate line is shown: the engine's
 * best move in the position shown, and the move the review found better
 * than the one played to reach it (as lichess draws it, beside the move
 * played).
 */
export function arrows(ctrl: Ctrl): Arrow[] {
  if (ctrl.mate.variation() || !ctrl.state || ctrl.preview) return [];
  if (ctrl.learn.active()) {
    const answer = ctrl.learn.status === 'shown' ? ctrl.learn.current()?.better : undefined;
    return answer ? [{ usi: answer.usi, kind: 'better', color: answer.color }] : [];
  }
  const arrows: Arrow[] = [];
  const best = ctrl.analysis.arrowMove();
  if (best) arrows.push({ usi: best, kind: 'best' });
  const shown = ctrl.shown();
  // Only beside a move the review found fault with, as its notes name it:
  // a move that lost a hair is not worth an arrow.
  const judged = shown > 0 ? ctrl.state.review?.moves[shown - 1] : undefined;
  const better = judged?.label ? judged.better : undefined;
  if (better) arrows.push({ usi: better.usi, kind: 'better', color: ctrl.state.moves[shown - 1].color });
  return arrows;
}
