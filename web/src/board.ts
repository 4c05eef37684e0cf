// What the page asks of a board widget, whichever draws it.

import type { Color, PlayedMove } from './api';
import { colorsOf } from './sides';
import type { VariantId } from './variants';

/** One position to show, and what may be played there. */
export interface BoardView {
  /** SFEN (shogi games) or FEN (pawns). */
  position: string;
  lastMove: string | null;
  check: boolean;
  turn: Color;
  /** The server's legal moves; empty when the board only shows (review, game over). */
  legalMoves: string[];
  /** The sides the person at this screen may move. */
  movable: 'both' | Color | 'none';
  /**
   * Whether the one side in `movable` may premove (or pre-drop) while the
   * other is to move: shown, and kept by the state until the reply comes.
   */
  premovable?: boolean;
}

/**
 * Who may act on the board: the side to move (`move`: the player's, or
 * either at one screen), the player's one side ahead of its turn
 * (`premove`), or nobody.
 */
export function boardActor(view: BoardView): 'move' | 'premove' | undefined {
  if (view.movable === 'none') return undefined;
  if (view.movable === 'both' || view.movable === view.turn) return view.legalMoves.length > 0 ? 'move' : undefined;
  return view.premovable ? 'premove' : undefined;
}

/** The position after `move` of a line (a mate, an analysis line), shown without moving. */
export function viewAfter(variant: VariantId, move: PlayedMove): BoardView {
  const [first, second] = colorsOf(variant);
  // SFEN writes b (Sente) and w (Gote); FEN w (White) and b (Black).
  const letter = move.position.split(' ')[1];
  const firstToMove = variant === 'pawns' ? letter === 'w' : letter === 'b';
  return {
    position: move.position,
    lastMove: move.usi,
    check: move.check,
    turn: firstToMove ? first : second,
    legalMoves: [],
    movable: 'none',
  };
}

/**
 * An arrow the page draws on the board: the engine's best move in the
 * position shown (`best`), or the move the review found better than the
 * one played to reach it (`better`), by the side that played it (`color`;
 * a drop's arrow starts at that side's hand piece).
 */
export interface Arrow {
  usi: string;
  kind: 'best' | 'better';
  /** The side whose move it is; the side to move when left out. */
  color?: Color;
}

export interface Board {
  show(view: BoardView): void;
  /** Draws the premove the state keeps (USI/UCI), or none; the widget's own premove is replaced. */
  showPremove(usi: string | undefined): void;
  /** Draws these arrows (USI/UCI moves) and takes the others away; the player's own stay. */
  showArrows(arrows: Arrow[]): void;
  setOrientation(color: Color): void;
  destroy(): void;
}

/**
 * Runs `forget` before the widget sees a press: the widgets remember where
 * the board is and only notice a change of its size, not of its place (a
 * longer message above the board moves it down). Returns the unbinding.
 */
export function forgetBoundsOnPress(forget: () => void): () => void {
  const options = { capture: true, passive: true };
  for (const type of ['mousedown', 'touchstart'] as const) document.addEventListener(type, forget, options);
  return () => {
    for (const type of ['mousedown', 'touchstart'] as const) document.removeEventListener(type, forget, options);
  };
}

/** Called with the USI/UCI text of a move the player made on the board. */
export type OnMove = (usi: string) => void;

/** Called when the premove on the board changed: its USI/UCI text, or undefined once it is gone. */
export type OnPremove = (usi: string | undefined) => void;

/** A board move's squares and promotion mark, or a drop's letter and square. */
export type ParsedMove =
  | { kind: 'move'; from: string; to: string; promote: boolean }
  | { kind: 'drop'; letter: string; to: string };

export function parseMove(text: string): ParsedMove | undefined {
  const drop = /^([A-Z])\*([0-9]+[a-z])$/.exec(text);
  if (drop) return { kind: 'drop', letter: drop[1], to: drop[2] };
  const move = /^([0-9]+[a-z]|[a-z][0-9]+)([0-9]+[a-z]|[a-z][0-9]+)(\+?)$/.exec(text);
  if (move) return { kind: 'move', from: move[1], to: move[2], promote: move[3] === '+' };
  return undefined;
}
