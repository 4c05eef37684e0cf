// Game review: "Review this game" asks the server's engine to judge every
// position of a finished game, an imported record or a game between people
// at this screen (where analysis is offered). This is its state;
// view/review.ts draws the progress, the graph and each side's figures. The
// review is kept with the game: every page that opens it later shows it
// without asking again.

import type { GameState, ReviewProgress } from './api';
import { t } from './i18n';

export class ReviewCtrl {
  progress?: ReviewProgress;
  failure?: string;
  /** The game whose review this page asked for. */
  private askedFor?: string;
  /** The game shown. */
  private gameId?: string;

  /** Asks for the review of the game shown; returns whether to send the request. */
  ask(): boolean {
    if (!this.gameId) return false;
    this.progress = undefined;
    this.failure = undefined;
    this.askedFor = this.gameId;
    return true;
  }

  /** Takes a progress message of this page's review. */
  receive(progress: ReviewProgress): void {
    this.progress = progress;
    // The server's sentence, in English; the page's own words when it gave none.
    this.failure = progress.status === 'failed' ? (progress.error ?? t('review.failed')) : undefined;
  }

  /** The server refused a request while a review was asked for: returns whether it was the review's (then stop it). */
  refused(message: string): boolean {
    if (!this.running()) return false;
    this.failure = message;
    this.progress = undefined;
    this.askedFor = undefined;
    return true;
  }

  /** Whether this page's review is under way (or done, its state with the review on the way). */
  running(): boolean {
    return !!this.askedFor && this.askedFor === this.gameId && this.progress?.status !== 'failed';
  }

  /** Follows the game shown. */
  sync(state: GameState): void {
    this.gameId = state.id;
    if (this.askedFor && this.askedFor !== state.id) {
      this.askedFor = undefined;
      this.progress = undefined;
      this.failure = undefined;
    }
    // The review asked for has arrived: this page asks nothing more.
    if (state.review && this.askedFor === state.id) {
      this.askedFor = undefined;
      this.progress = undefined;
    }
  }

  /** Where the review stands for the page's data: done, running, failed or ''. */
  status(state: GameState): string {
    return state.review ? 'done' : this.running() ? 'running' : this.failure ? 'failed' : '';
  }
}
