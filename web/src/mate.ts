// "Find mate": the server's mate solver on the position shown. It is
// offered where it helps nobody against anybody (a finished game, or a game
// between people at this screen); the line it finds is stepped through on
// the board as a variation, without changing the game.

import { ApiError, findMate, type GameState, type MateFound } from './api';
import { viewAfter, type BoardView } from './board';
import type { VariantId } from './variants';

/** The seconds the server is asked to search. */
const SECONDS = 10;

export class MatePanel {
  private found?: MateFound;
  /** The server's refusal, shown until the position changes. */
  private failure?: string;
  /** The game and move the answer (or the search under way) is for. */
  private forKey?: string;
  private searching = false;
  /** The step of the line shown on the board, if any. */
  private step?: number;
  /** The game of the position shown. */
  private variant?: VariantId;
  private readonly button: HTMLButtonElement;
  private readonly output: HTMLDivElement;

  constructor(
    private readonly panel: HTMLElement,
    /** Draws the page again: a step of the line was picked, or left. */
    private readonly onChange: () => void,
  ) {
    this.button = panel.querySelector('button')!;
    this.output = panel.querySelector('div')!;
  }

  /** Whether mate search is offered in this game now. */
  static allowed(state: GameState): boolean {
    if (state.variant === 'pawns') return false;
    return !!state.outcome || (state.mode === 'local' && state.opponent.kind === 'human');
  }

  /** Shows the panel for `state` at move `ply`; an answer for another position is dropped. */
  render(state: GameState, ply: number, onFind: () => void): void {
    this.variant = state.variant;
    const allowed = MatePanel.allowed(state);
    this.panel.hidden = !allowed;
    const key = `${state.id}/${ply}/${state.version}`;
    if (key !== this.forKey && !this.searching) {
      this.found = undefined;
      this.failure = undefined;
      this.forKey = undefined;
      this.step = undefined;
    }
    this.button.disabled = this.searching || !allowed;
    this.button.onclick = onFind;
    if (!this.searching) this.renderAnswer();
  }

  /** Asks the server for a mate in the position after move `ply`. */
  async find(state: GameState, ply: number): Promise<void> {
    if (this.searching) return;
    this.searching = true;
    this.forKey = `${state.id}/${ply}/${state.version}`;
    this.found = undefined;
    this.failure = undefined;
    this.step = undefined;
    this.onChange();
    this.button.disabled = true;
    this.output.textContent = `Looking for a mate (up to ${SECONDS} s; if other searches run, this one waits its turn)…`;
    this.output.className = 'mate-output searching';
    try {
      this.found = await findMate(state.id, ply, SECONDS);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.failure = error.message;
    } finally {
      this.searching = false;
    }
    // Drawn again through the page: an answer for a position left meanwhile is dropped.
    this.onChange();
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

  /** What the status line says while a step of the line is shown. */
  describeStep(): string | undefined {
    const found = this.found;
    if (!found || this.step === undefined || !this.variation()) return undefined;
    return `Mate line, move ${this.step + 1} of ${found.line.length}: the game itself is unchanged ("Back to the game" returns to it).`;
  }

  /** Back to the game's own position. */
  private leaveVariation(): void {
    this.step = undefined;
    this.onChange();
  }

  private renderAnswer(): void {
    const found = this.found;
    this.output.textContent = '';
    this.output.className = 'mate-output';
    if (this.failure) {
      this.output.textContent = this.failure;
      this.output.className = 'mate-output error';
    }
    if (!found) return;
    const seconds = (found.milliseconds / 1000).toFixed(1);
    const summary = document.createElement('p');
    summary.className = 'mate-summary';
    summary.textContent =
      found.answer === 'mate'
        ? `Mate in ${found.length} (${found.nodes.toLocaleString('en')} nodes, ${seconds} s):`
        : found.answer === 'nomate'
          ? `No mate: every line of checks fails (${found.nodes.toLocaleString('en')} nodes, ${seconds} s).`
          : `No mate found in ${seconds} s (the search ran out of time).`;
    this.output.appendChild(summary);
    if (found.answer !== 'mate') return;
    const list = document.createElement('ol');
    list.className = 'mate-line';
    found.line.forEach((move, index) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = move.notation;
      button.title = move.usi;
      button.dataset.step = String(index);
      if (index === this.step) {
        button.classList.add('current');
        button.setAttribute('aria-current', 'step');
      }
      button.addEventListener('click', () => this.show(index));
      item.appendChild(button);
      list.appendChild(item);
    });
    this.output.appendChild(list);
    if (this.step !== undefined) {
      const back = document.createElement('button');
      back.type = 'button';
      back.id = 'mate-back';
      back.textContent = 'Back to the game';
      back.addEventListener('click', () => this.leaveVariation());
      this.output.appendChild(back);
    }
  }

  private show(index: number): void {
    this.step = index;
    this.onChange();
  }
}
