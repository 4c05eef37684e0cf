// "Find mate": the server's mate solver on the position shown. This is its
// state; view/mate.ts draws it. It is offered where it helps nobody against
// anybody (a finished game, or a game between people at this screen); the
// line it finds is stepped through on the board as a variation, without
// changing the game.

import { ApiError, type GameState, type MateFound } from './api';
import { viewAfter, type BoardView } from './board';
import type { VariantId } from './variants';

/** The seconds the server is asked to search. */
export const MATE_SECONDS = 10;

export class MateCtrl {
  found?: MateFound;
  /** The server's refusal, shown until the position changes. */
  failure?: string;
  searching = false;
  /** The step of the line shown on the board, if any. */
  step?: number;
  /** The game and move the answer (or the search under way) is for. */
  private forKey?: string;
  /** The game of the position shown. */
  private variant?: VariantId;

  /** Whether mate search is offered in this game now. */
  static allowed(state: GameState): boolean {
    if (state.variant === 'pawns') return false;
    return !!state.outcome || (state.mode === 'local' && state.opponent.kind === 'human');
  }

  /** Follows `state` at move `ply`: an answer for another position is dropped. */
  sync(state: GameState, ply: number): void {
    this.variant = state.variant;
    const key = `${state.id}/${ply}/${state.version}`;
    if (key !== this.forKey && !this.searching) {
      this.found = undefined;
      this.failure = undefined;
      this.forKey = undefined;
      this.step = undefined;
    }
  }

  /** Asks `search` for a mate in the position after move `ply`; `changed` is told when the state changes. */
  async find(
    state: GameState,
    ply: number,
    search: (id: string, ply: number, seconds: number, engine?: string) => Promise<MateFound>,
    changed: () => void,
    engine?: string,
  ): Promise<void> {
    if (this.searching) return;
    this.searching = true;
    this.forKey = `${state.id}/${ply}/${state.version}`;
    this.found = undefined;
    this.failure = undefined;
    this.step = undefined;
    changed();
    try {
      this.found = await search(state.id, ply, MATE_SECONDS, engine);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.failure = error.message;
    } finally {
      this.searching = false;
    }
    // Drawn again through the page: an answer for a position left meanwhile is dropped.
    changed();
  }

  /** Shows step `index` of the line on the board (`undefined`: back to the game). */
  show(index: number | undefined): void {
    this.step = index;
  }

  /** The step of the mate line to show on the board instead of the game, if one was picked. */
  variation(): BoardView | undefined {
    const move = this.step === undefined ? undefined : this.found?.line[this.step];
    return move && this.variant ? viewAfter(this.variant, move) : undefined;
  }

  /** The step of the line shown, as the page's data says it ('' for none). */
  shownStep(): string {
    return this.variation() ? String(this.step) : '';
  }
}
