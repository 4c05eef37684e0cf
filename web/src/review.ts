// Game review: "Review this game" asks the server's engine to judge every
// position of a finished game, an imported record or a game between people
// at this screen (where analysis is offered), shows its progress, then the
// evaluation graph and each side's figures. The review is kept with the
// game: every page that opens it later shows it without asking again.

import type { GameReview, GameState, ReviewProgress } from './api';
import { AnalysisPanel } from './analysis';
import { drawReviewGraph } from './review-graph';
import { colorsOf, sideName } from './sides';

export class ReviewPanel {
  private progress?: ReviewProgress;
  private failure?: string;
  /** The game whose review this page asked for. */
  private askedFor?: string;
  private readonly button: HTMLButtonElement;
  private readonly progressBox: HTMLElement;
  private readonly bar: HTMLProgressElement;
  private readonly progressText: HTMLElement;
  private readonly graph: SVGSVGElement;
  private readonly summary: HTMLTableElement;

  constructor(
    private readonly panel: HTMLElement,
    /** Shows move `ply`. */
    private readonly onPick: (ply: number) => void,
    /** Draws the page again. */
    private readonly onChange: () => void,
    /** Asks the server for a review (`false`: stops it). */
    private readonly send: (start: boolean) => void,
  ) {
    this.button = panel.querySelector<HTMLButtonElement>('#review-game')!;
    this.progressBox = panel.querySelector<HTMLElement>('#review-progress')!;
    this.bar = panel.querySelector<HTMLProgressElement>('#review-bar')!;
    this.progressText = panel.querySelector<HTMLElement>('#review-progress-text')!;
    this.graph = panel.querySelector<SVGSVGElement>('#review-graph')!;
    this.summary = panel.querySelector<HTMLTableElement>('#review-summary')!;
    this.button.addEventListener('click', () => {
      this.progress = undefined;
      this.failure = undefined;
      this.askedFor = document.body.dataset.gameId;
      this.send(true);
      this.onChange();
    });
  }

  /** Takes a progress message of this page's review. */
  receive(progress: ReviewProgress): void {
    this.progress = progress;
    this.failure = progress.status === 'failed' ? (progress.error ?? 'The review failed.') : undefined;
    this.onChange();
  }

  /** The server refused a request while a review was asked for. */
  refused(message: string): boolean {
    if (!this.running()) return false;
    this.failure = message;
    this.progress = undefined;
    this.askedFor = undefined;
    this.send(false);
    this.onChange();
    return true;
  }

  /** Whether this page's review is under way (or done, its state with the review on the way). */
  private running(): boolean {
    return !!this.askedFor && this.askedFor === document.body.dataset.gameId && this.progress?.status !== 'failed';
  }

  /** Shows the panel for `state`, move `shown` being on the board. */
  render(state: GameState, shown: number): void {
    if (this.askedFor && this.askedFor !== state.id) {
      this.askedFor = undefined;
      this.progress = undefined;
      this.failure = undefined;
    }
    const review = state.review;
    // The review asked for has arrived: this page asks nothing more.
    if (review && this.askedFor === state.id) {
      this.askedFor = undefined;
      this.progress = undefined;
    }
    const allowed = AnalysisPanel.allowed(state) && state.ply > 0;
    this.panel.hidden = !allowed && !review;
    const running = this.running() && !review;
    this.button.hidden = !!review || running || !allowed;
    this.button.textContent = 'Review this game';
    this.button.title = `The engine judges each of the ${state.ply + 1} positions; mistakes are marked in the move list and on a graph.`;
    this.renderProgress(state, running);
    document.body.dataset.review = review ? 'done' : running ? 'running' : this.failure ? 'failed' : '';
    this.graph.toggleAttribute('hidden', !review);
    this.summary.hidden = !review;
    if (review) {
      drawReviewGraph(this.graph, state, review, shown, this.onPick);
      this.renderSummary(state, review);
    }
  }

  private renderProgress(state: GameState, running: boolean): void {
    const progress = this.progress;
    this.progressBox.hidden = !running && !this.failure;
    this.progressBox.classList.toggle('error', !!this.failure);
    this.bar.hidden = !running;
    if (this.failure) {
      this.progressText.textContent = this.failure;
      return;
    }
    if (!running) return;
    const total = progress?.total ?? state.ply + 1;
    const done = progress?.done ?? 0;
    this.bar.max = total;
    this.bar.value = done;
    this.progressText.textContent =
      progress?.status === 'waiting'
        ? `Waiting for an engine: all ${progress.engines.cap} of the server's are busy.`
        : `Reviewing: ${done} of ${total} positions judged…`;
  }

  private renderSummary(state: GameState, review: GameReview): void {
    this.summary.textContent = '';
    const head = this.summary.createTHead().insertRow();
    for (const title of ['', 'Accuracy', '?!', '?', '??']) {
      const cell = document.createElement('th');
      cell.textContent = title;
      if (title === '?!') cell.title = 'Inaccuracies: 5 % or more of the expected score lost';
      if (title === '?') cell.title = 'Mistakes: 10 % or more';
      if (title === '??') cell.title = 'Blunders: 15 % or more';
      head.appendChild(cell);
    }
    const rows = this.summary.createTBody();
    for (const color of colorsOf(state.variant)) {
      const side = review.sides[color];
      if (!side) continue;
      const row = rows.insertRow();
      row.dataset.side = color;
      const name = document.createElement('th');
      name.textContent = sideName(state.variant, color);
      row.appendChild(name);
      for (const value of [`${side.accuracy.toFixed(1)} %`, side.inaccuracies, side.mistakes, side.blunders])
        row.insertCell().textContent = String(value);
    }
    const caption = this.summary.createCaption();
    caption.textContent = `Koma at ${review.nodes.toLocaleString('en')} nodes a position`;
  }
}
