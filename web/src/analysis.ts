// Analysis beside the board: the server's engine on the position shown (a
// move of the game, or a variation stepped into from one of its lines).
// This is its state; view/analysis.ts draws the bar, the lines and the
// variation. It is offered where it helps nobody against anybody (a
// finished game, an imported record, a game between people at this
// screen), follows the position the viewer steps to, and stops when the
// switch is off or the page is hidden. The viewer chooses the engine
// (Koma's own, or one registered with `koma serve --engine`) and may add a
// second one whose lines show beside the first's, as ShogiHome's research
// mode does.

import type { Analysis, EngineInfo, GameState, PlayedMove } from './api';
import { viewAfter, type BoardView } from './board';
import type { VariantId } from './variants';

/** What the server is asked to analyse. */
export interface AnalysisRequest {
  /** A registered engine; Koma's own when absent. */
  engine?: string;
  ply: number;
  moves: string[];
  /** The best lines wanted (MultiPV), 1 to MAX_LINES. */
  lines: number;
}

/** The lines the server gives (docs/API.md): 1 to 5, 3 unless the viewer chose. */
export const MIN_LINES = 1;
export const MAX_LINES = 5;
export const DEFAULT_LINES = 3;
export const STORAGE_LINES = 'koma.analysisLines';
/** Koma's own engine's name in the API. */
export const BUILT_IN = 'koma';
export const STORAGE_ENGINE = 'koma.analysisEngine';
export const STORAGE_SECOND = 'koma.analysisSecond';

/** What the server is asked of an engine beside the first. */
export interface EngineRequest extends AnalysisRequest {
  engine: string;
}

/** The number of lines kept by the browser, when it is one the server gives. */
export function readLines(stored: string | null | undefined): number {
  const lines = Number(stored);
  return Number.isInteger(lines) && lines >= MIN_LINES && lines <= MAX_LINES && stored?.trim() === String(lines) ? lines : DEFAULT_LINES;
}

/** The engine's speed in thousands of nodes a second, or undefined before a millisecond has passed. */
export function kiloNodesPerSecond(nodes: number, milliseconds: number): number | undefined {
  return milliseconds > 0 ? nodes / milliseconds : undefined;
}

export class AnalysisCtrl {
  /** Whether the switch is on. */
  on = false;
  analysis?: Analysis;
  failure?: string;
  /** Whether the page is hidden (the analysis pauses). */
  hidden = false;
  /** The best lines asked for (MultiPV). */
  lines = DEFAULT_LINES;
  /** Moves stepped into from the lines, from the move shown. */
  variation: PlayedMove[] = [];
  /** The lines shown whole (by index); the others show one row. */
  readonly openLines = new Set<number>();
  /** The engines the server has (Koma's own alone until they are known). */
  engines: EngineInfo[] = [];
  /** The engine chosen (its name). */
  engine = BUILT_IN;
  /** The engine chosen to analyse beside it, if any. */
  second?: string;
  /** The second engine's analysis, and its failure. */
  secondAnalysis?: Analysis;
  secondFailure?: string;
  private secondKey?: string;
  private secondJson?: string;

  /** The engines that play `variant`: Koma's own first. */
  enginesFor(variant: string): EngineInfo[] {
    const known = this.engines.filter((engine) => engine.games.includes(variant));
    return known.some((engine) => engine.name === BUILT_IN) ? known : [{ name: BUILT_IN, builtIn: true, games: [variant], threads: 1 }, ...known];
  }

  /** The engine that analyses `variant`: the one chosen if it plays it, else Koma's own. */
  engineFor(variant: string): string {
    return this.enginesFor(variant).some((engine) => engine.name === this.engine) ? this.engine : BUILT_IN;
  }

  /** The second engine for `variant`, if one is chosen that plays it and is not the first. */
  secondFor(variant: string): string | undefined {
    const second = this.second;
    if (!second || second === this.engineFor(variant)) return undefined;
    return this.enginesFor(variant).some((engine) => engine.name === second) ? second : undefined;
  }

  /** Chooses the engine; the second is dropped if it is the same. */
  setEngine(name: string): void {
    this.engine = name;
    if (this.second === name) this.second = undefined;
  }

  /** Chooses the second engine (`undefined`: none). */
  setSecond(name: string | undefined): void {
    this.second = name && name !== this.engine ? name : undefined;
  }

  /** Shows line `index` whole, or on one row again. */
  toggleLine(index: number): void {
    if (!this.openLines.delete(index)) this.openLines.add(index);
  }
  /** The request sent (the game's id and the request's JSON), whose analysis is shown. */
  private requestKey?: string;
  /** The request's own JSON, as the server's messages repeat it. */
  private requestJson?: string;
  /** The game and move the variation starts from. */
  private variationBase?: string;

  /** Whether analysis is offered in this game now. */
  static allowed(state: GameState): boolean {
    return !!state.outcome || (state.mode === 'local' && state.opponent.kind === 'human');
  }

  /** Whether the engine is asked about the position shown. */
  active(): boolean {
    return this.on && !this.hidden;
  }

  /** The switch turned on or off. */
  setOn(on: boolean): void {
    this.on = on;
    if (!on) this.variation = [];
  }

  /** Takes a message from the server: only the analysis of what is asked now is kept (the first engine's or the second's). Returns whether it was. */
  receive(analysis: Analysis): boolean {
    const lines = analysis.multiPv ?? DEFAULT_LINES;
    const json = JSON.stringify({ ply: analysis.ply, moves: analysis.moves, lines });
    const engine = analysis.engine ?? BUILT_IN;
    const failure = analysis.status === 'failed' ? (analysis.error ?? analysis.status) : undefined;
    if (json === this.requestJson && engine === this.requestEngine) {
      this.analysis = analysis;
      this.failure = failure;
      return true;
    }
    if (json === this.secondJson && engine === this.secondEngine) {
      this.secondAnalysis = analysis;
      this.secondFailure = failure;
      return true;
    }
    return false;
  }

  /** The engine of the request whose analysis is shown. */
  private requestEngine?: string;
  /** The second engine of the request whose analysis is shown beside it. */
  private secondEngine?: string;

  /**
   * The server refused a request; `engine`, when the refusal names one, is the
   * engine it was for: the second's part shows it if it is the second's.
   * Returns whether that matters to the analysis.
   */
  refused(message: string, engine?: string): boolean {
    if (!this.on) return false;
    if (engine !== undefined && engine === this.secondEngine && engine !== this.requestEngine) this.secondFailure = message;
    else this.failure = message;
    return true;
  }

  /**
   * Follows `state` at move `ply`: returns the request to send when it
   * changed (`null`: stop), `undefined` when nothing need be sent.
   */
  sync(state: GameState, ply: number): AnalysisRequest | null | undefined {
    if (!AnalysisCtrl.allowed(state) && this.on) this.on = false;
    const base = `${state.id}/${ply}`;
    if (base !== this.variationBase) {
      this.variation = [];
      this.variationBase = base;
    }
    const asked = this.active() ? { ply, moves: this.variation.map((move) => move.usi), lines: this.lines } : undefined;
    const json = asked ? JSON.stringify(asked) : undefined;
    const engine = this.engineFor(state.variant);
    // A new game has a new connection, which has been asked nothing yet.
    const key = json ? `${state.id} ${engine} ${json}` : undefined;
    if (key === this.requestKey) return undefined;
    this.requestKey = key;
    this.requestJson = json;
    this.requestEngine = engine;
    this.analysis = undefined;
    this.failure = undefined;
    // Koma's own engine is the server's default: its request names none.
    return asked ? (engine === BUILT_IN ? asked : { ...asked, engine }) : null;
  }

  /**
   * The same for the second engine, after `sync`: the request to send when
   * it changed (`null`: stop), `undefined` when nothing need be sent.
   */
  syncSecond(state: GameState, ply: number): EngineRequest | null | undefined {
    const engine = this.secondFor(state.variant);
    const asked = this.active() && engine ? { ply, moves: this.variation.map((move) => move.usi), lines: this.lines } : undefined;
    const json = asked ? JSON.stringify(asked) : undefined;
    const key = json ? `${state.id} ${engine} ${json}` : undefined;
    if (key === this.secondKey) return undefined;
    this.secondKey = key;
    this.secondJson = json;
    this.secondEngine = engine;
    this.secondAnalysis = undefined;
    this.secondFailure = undefined;
    return asked && engine ? { ...asked, engine } : null;
  }

  /** Sets the number of lines (clamped to what the server gives); the next sync asks again. */
  setLines(lines: number): void {
    this.lines = Math.max(MIN_LINES, Math.min(MAX_LINES, Math.round(lines) || DEFAULT_LINES));
  }

  /** Steps into `line` up to its move `step` (0 for the first), after the variation already shown. */
  stepInto(line: PlayedMove[], step: number): void {
    this.variation = [...this.variation, ...line.slice(0, step + 1)];
  }

  /** Goes back to move `index` of the variation (0 for its first); -1 leaves it. */
  backTo(index: number): void {
    this.variation = this.variation.slice(0, index + 1);
  }

  /** The variation's position, when the viewer has stepped into one. */
  variationView(variant: VariantId): BoardView | undefined {
    const last = this.variation[this.variation.length - 1];
    return last ? viewAfter(variant, last) : undefined;
  }

  /** The line the pointer rests on (its index), whose first move the arrow shows. */
  hovered?: number;

  /**
   * The move the arrow shows (USI/UCI): the first move of the line the
   * pointer rests on, as lishogi shows it, else the engine's best move.
   */
  arrowMove(): string | undefined {
    if (!this.active()) return undefined;
    const lines = this.analysis?.lines ?? [];
    const line = (this.hovered !== undefined ? lines[this.hovered] : undefined) ?? lines[0];
    return line?.moves[0]?.usi;
  }
}
