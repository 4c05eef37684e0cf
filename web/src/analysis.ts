// Analysis beside the board: the server's engine on the position shown (a
// move of the game, or a variation stepped into from one of its lines),
// with an evaluation bar, the best three lines, and the best move as an
// arrow. It is offered where it helps nobody against anybody (a finished
// game, an imported record, a game between people at this screen), follows
// the position the viewer steps to, and stops when the switch is off or
// the page is hidden.

import type { Analysis, AnalysisLine, Color, GameState, PlayedMove, Score } from './api';
import { viewAfter, type BoardView } from './board';
import { colorsOf, sideName } from './sides';
import type { VariantId } from './variants';

/** An evaluation as people read it: `+35` (shogi) or `+0.35` (pawns), `☗ mates in 5`. */
export function scoreText(variant: VariantId, score: Score): string {
  if ('mate' in score) {
    const [first, second] = colorsOf(variant);
    const winner = score.mate >= 0 ? first : second;
    return `${sideName(variant, winner)} mates in ${Math.abs(score.mate)}`;
  }
  const sign = score.cp > 0 ? '+' : score.cp < 0 ? '−' : '±';
  const size = Math.abs(score.cp);
  return variant === 'pawns' ? `${sign}${(size / 100).toFixed(2)}` : `${sign}${size}`;
}

/** What the server is asked to analyse. */
interface Request {
  ply: number;
  moves: string[];
}

export class AnalysisPanel {
  private on = false;
  private analysis?: Analysis;
  private failure?: string;
  /** The request sent (the game's id and the request's JSON), whose analysis is shown. */
  private requestKey?: string;
  /** The request's own JSON, as the server's messages repeat it. */
  private requestJson?: string;
  /** The game and move the variation starts from. */
  private variationBase?: string;
  /** Moves stepped into from the lines, from the move shown. */
  private variation: PlayedMove[] = [];
  private hidden = document.visibilityState === 'hidden';
  private readonly toggle: HTMLInputElement;
  private readonly status: HTMLElement;
  private readonly lines: HTMLOListElement;
  private readonly path: HTMLElement;

  constructor(
    private readonly panel: HTMLElement,
    private readonly bar: HTMLElement,
    /** Draws the page again. */
    private readonly onChange: () => void,
    /** Sends a request to the server (`undefined`: stop). */
    private readonly send: (request?: Request) => void,
  ) {
    this.toggle = panel.querySelector<HTMLInputElement>('#analyse')!;
    this.status = panel.querySelector<HTMLElement>('#analysis-status')!;
    this.lines = panel.querySelector<HTMLOListElement>('#analysis-lines')!;
    this.path = panel.querySelector<HTMLElement>('#analysis-variation')!;
    this.toggle.addEventListener('change', () => {
      this.on = this.toggle.checked;
      if (!this.on) this.variation = [];
      this.onChange();
    });
    document.addEventListener('visibilitychange', () => {
      this.hidden = document.visibilityState === 'hidden';
      this.onChange();
    });
  }

  /** Whether analysis is offered in this game now. */
  static allowed(state: GameState): boolean {
    return !!state.outcome || (state.mode === 'local' && state.opponent.kind === 'human');
  }

  /** Whether the engine is asked about the position shown. */
  active(): boolean {
    return this.on && !this.hidden;
  }

  /** Takes a message from the server: only the analysis of what is asked now is kept. */
  receive(analysis: Analysis): void {
    if (JSON.stringify({ ply: analysis.ply, moves: analysis.moves }) !== this.requestJson) return;
    this.analysis = analysis;
    this.failure = undefined;
    this.onChange();
  }

  /** The server refused the request. */
  refused(message: string): void {
    if (!this.on) return;
    this.failure = message;
    this.onChange();
  }

  /** Shows the panel and the bar for `state` at move `ply`, and asks the server about that position. */
  render(state: GameState, ply: number, orientation: Color): void {
    const allowed = AnalysisPanel.allowed(state);
    this.panel.hidden = !allowed;
    if (!allowed && this.on) {
      this.on = false;
      this.toggle.checked = false;
    }
    const base = `${state.id}/${ply}`;
    if (base !== this.variationBase) {
      this.variation = [];
      this.variationBase = base;
    }
    const request = this.active() ? { ply, moves: this.variation.map((move) => move.usi) } : undefined;
    const json = request ? JSON.stringify(request) : undefined;
    // A new game has a new connection, which has been asked nothing yet.
    const key = json ? `${state.id} ${json}` : undefined;
    if (key !== this.requestKey) {
      this.requestKey = key;
      this.requestJson = json;
      this.analysis = undefined;
      this.failure = undefined;
      this.send(request);
    }
    document.body.dataset.analysis = this.on ? (this.analysis?.status ?? 'asked') : '';
    this.renderBar(state, orientation);
    this.renderLines(state);
    this.renderPath();
  }

  /** The variation's position, when the viewer has stepped into one. */
  variationView(variant: VariantId): BoardView | undefined {
    const last = this.variation[this.variation.length - 1];
    return last ? viewAfter(variant, last) : undefined;
  }

  /** What the status line says while a variation is shown. */
  describeVariation(): string | undefined {
    if (this.variation.length === 0) return undefined;
    return `Variation, ${this.variation.length} move${this.variation.length === 1 ? '' : 's'} from the game: the game itself is unchanged ("Back to the game" returns to it).`;
  }

  /** The engine's best move in the position shown (USI/UCI), for the arrow. */
  bestMove(): string | undefined {
    if (!this.active()) return undefined;
    return this.analysis?.lines[0]?.moves[0]?.usi;
  }

  private renderBar(state: GameState, orientation: Color): void {
    const best = this.analysis?.lines[0];
    this.bar.hidden = !this.on;
    const fill = this.bar.querySelector<HTMLElement>('.eval-fill')!;
    const text = this.bar.querySelector<HTMLElement>('.eval-text')!;
    const [first] = colorsOf(state.variant);
    // The server says what the evaluation means in this game.
    const firstShare = best ? best.score.expected : 0.5;
    // The fill is the bottom side's share, growing from the bottom.
    const share = orientation === first ? firstShare : 1 - firstShare;
    fill.style.height = `${(share * 100).toFixed(1)}%`;
    text.textContent = best ? scoreText(state.variant, best.score) : '';
    this.bar.title = best
      ? `${scoreText(state.variant, best.score)} (depth ${this.analysis?.depth}): ${sideName(state.variant, first)}'s expected score ${Math.round(firstShare * 100)} %`
      : 'Evaluation';
    this.bar.dataset.share = firstShare.toFixed(3);
  }

  private renderLines(state: GameState): void {
    this.status.textContent = '';
    this.status.className = 'analysis-status';
    this.lines.textContent = '';
    if (!this.on) return;
    if (this.hidden) {
      this.status.textContent = 'Paused while the page is hidden.';
      return;
    }
    if (this.failure) {
      this.status.textContent = this.failure;
      this.status.className = 'analysis-status error';
      return;
    }
    const analysis = this.analysis;
    if (!analysis) {
      this.status.textContent = 'Asking the engine…';
      return;
    }
    if (analysis.status === 'waiting') {
      this.status.textContent = `Waiting for an engine: all ${analysis.engines.cap} of the server's are analysing other positions.`;
      return;
    }
    const seconds = (analysis.milliseconds / 1000).toFixed(1);
    const nodes = analysis.nodes.toLocaleString('en');
    this.status.textContent =
      analysis.lines.length === 0
        ? analysis.nodes === 0
          ? 'The game is over here: nothing to analyse.'
          : `No depth completed in the ${seconds} s allowed.`
        : `Depth ${analysis.depth}, ${nodes} nodes, ${seconds} s${analysis.status === 'done' ? ' (finished)' : '…'}`;
    analysis.lines.forEach((line, index) => this.lines.appendChild(this.lineItem(state, line, index)));
  }

  private lineItem(state: GameState, line: AnalysisLine, index: number): HTMLLIElement {
    const item = document.createElement('li');
    item.className = 'analysis-line';
    item.dataset.line = String(index);
    const score = document.createElement('span');
    score.className = 'analysis-score';
    score.textContent = scoreText(state.variant, line.score);
    item.appendChild(score);
    line.moves.forEach((move, step) => {
      const button = document.createElement('button');
      button.type = 'button';
      // A line reads `1. e4 d5 2. exd5`: Black's number only on a line's first move.
      button.textContent = step > 0 ? move.notation.replace(/^\d+\.\.\. /, '') : move.notation;
      button.title = `${move.usi}: show the line up to here`;
      button.dataset.step = String(step);
      button.addEventListener('click', () => {
        this.variation = [...this.variation, ...line.moves.slice(0, step + 1)];
        this.onChange();
      });
      item.appendChild(button);
    });
    return item;
  }

  private renderPath(): void {
    this.path.textContent = '';
    this.path.hidden = this.variation.length === 0;
    if (this.variation.length === 0) return;
    const label = document.createElement('span');
    label.textContent = 'Variation: ';
    this.path.appendChild(label);
    this.variation.forEach((move, index) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = move.notation;
      button.title = 'Back to this move of the variation';
      if (index === this.variation.length - 1) button.classList.add('current');
      button.addEventListener('click', () => {
        this.variation = this.variation.slice(0, index + 1);
        this.onChange();
      });
      this.path.appendChild(button);
    });
    const back = document.createElement('button');
    back.type = 'button';
    back.id = 'analysis-back';
    back.textContent = 'Back to the game';
    back.addEventListener('click', () => {
      this.variation = [];
      this.onChange();
    });
    this.path.appendChild(back);
  }
}
