// Learn from your mistakes (as lichess has it): after a review, the board
// shows the position before each mistake or blunder of one side, and the
// person looks for a better move. The review's better move is right at
// once; any other move is judged by a short search of the server's
// analysis (the same WebSocket request as the Analysis panel, with one
// line): it is good when it gives up less of the expected score than the
// review's inaccuracy threshold. This is its state, a small state
// machine; view/learn.ts draws it.

import type { Analysis, Color, GameReview, GameState, MoveLabel, PlayedMove } from './api';
import type { AnalysisRequest } from './analysis';
import { colorsOf } from './sides';

/** The review's "inaccuracy" threshold (crates/analysis, docs/API.md): a move losing less is good. */
export const INACCURACY_LOSS = 0.05;

/** One mistake to learn from. */
export interface Exercise {
  /** The mistake's move number (1 for the game's first move). */
  ply: number;
  label: MoveLabel;
  /** The move played. */
  played: PlayedMove;
  /** The review's better move. */
  better: PlayedMove | null;
}

/**
 * Where the person stands: looking for a move (`find`), the move being
 * judged (`checking`), found (`good`), not (`wrong`, try again), the answer
 * shown (`shown`), or every mistake seen (`done`).
 */
export type LearnStatus = 'find' | 'checking' | 'good' | 'wrong' | 'shown' | 'done';

/** How each mistake ended. */
export type ExerciseResult = 'solved' | 'shown' | 'skipped';

/** The mistakes and blunders of `side` in `review`, in the game's order. */
export function exercisesOf(state: GameState, review: GameReview, side: Color): Exercise[] {
  const exercises: Exercise[] = [];
  for (const judged of review.moves) {
    const played = state.moves[judged.ply - 1];
    if (!played || played.color !== side) continue;
    if (judged.label !== 'mistake' && judged.label !== 'blunder') continue;
    exercises.push({ ply: judged.ply, label: judged.label, played, better: judged.better });
  }
  return exercises;
}

/** `expected` (the first player's expected score) as `side` sees it. */
function forSide(variant: GameState['variant'], side: Color, expected: number): number {
  return side === colorsOf(variant)[0] ? expected : 1 - expected;
}

export class LearnCtrl {
  status: LearnStatus = 'find';
  side?: Color;
  exercises: Exercise[] = [];
  /** The mistake shown (0 for the first). */
  index = 0;
  results: (ExerciseResult | undefined)[] = [];
  /** The move being judged, or judged. */
  tried?: string;
  /** The legal moves before the mistake, as the server's analysis lists them. */
  legal: string[] = [];
  /** How much of the expected score the move tried gave up, once judged by the search. */
  loss?: number;
  /** The server's refusal of the mode's last request (its sentence, in English). */
  failure?: string;
  private game?: GameState;
  private review?: GameReview;

  /** Whether the mode is on. */
  active(): boolean {
    return !!this.game;
  }

  /** Starts with `side`'s mistakes in the reviewed `state`; false (and off) when it has none. */
  start(state: GameState, side: Color): boolean {
    const review = state.review;
    const exercises = review ? exercisesOf(state, review, side) : [];
    if (!review || exercises.length === 0) return false;
    this.game = state;
    this.review = review;
    this.side = side;
    this.exercises = exercises;
    this.results = exercises.map(() => undefined);
    this.goTo(0);
    return true;
  }

  /** Leaves the mode. */
  exit(): void {
    this.game = undefined;
    this.review = undefined;
    this.exercises = [];
    this.results = [];
    this.status = 'find';
    this.tried = undefined;
  }

  /** The mistake shown. */
  current(): Exercise | undefined {
    return this.status === 'done' ? undefined : this.exercises[this.index];
  }

  /** The move of the game whose position is shown: the one before the mistake. */
  beforePly(): number | undefined {
    const exercise = this.current();
    return exercise ? exercise.ply - 1 : undefined;
  }

  /** Whether the board takes a move now. */
  movable(): boolean {
    return (this.status === 'find' || this.status === 'wrong') && this.legal.length > 0;
  }

  /** What the server's analysis must be asked now: the legal moves before the mistake, or the move tried; null for nothing. */
  request(): AnalysisRequest | null {
    const ply = this.beforePly();
    if (ply === undefined) return null;
    if (this.status === 'checking' && this.tried) return { ply, moves: [this.tried], lines: 1 };
    if (this.legal.length === 0 && this.status !== 'shown') return { ply, moves: [], lines: 1 };
    return null;
  }

  /**
   * The server refused a request while the mode waits for one: the
   * refusal is shown, and a move being judged is given back (another may
   * be tried, or the answer shown). Returns whether it was the mode's.
   */
  refused(message: string): boolean {
    if (!this.request()) return false;
    this.failure = message;
    if (this.status === 'checking') this.status = 'find';
    return true;
  }

  /** Takes the server's analysis: returns whether it changed anything. */
  receive(analysis: Analysis): boolean {
    const request = this.request();
    if (!request || analysis.ply !== request.ply || analysis.moves.join(' ') !== request.moves.join(' ')) return false;
    this.failure = undefined;
    if (request.moves.length === 0) {
      this.legal = analysis.legalMoves ?? [];
      return true;
    }
    const enough = analysis.status === 'done' || (analysis.lines.length > 0 && analysis.nodes >= (this.review?.nodes ?? 0));
    if (!enough) return false;
    this.judge(analysis.lines[0]?.score.expected);
    return true;
  }

  /**
   * Judges the move tried from the first player's expected score after it
   * (`undefined`: the game ended there, which the mover's move only does
   * by winning in the shogi games).
   */
  judge(firstExpected: number | undefined): void {
    const game = this.game;
    const review = this.review;
    const exercise = this.current();
    if (!game || !review || !exercise || !this.side || this.status !== 'checking') return;
    const before = review.positions[exercise.ply - 1].evaluation.expected;
    const best = forSide(game.variant, this.side, before);
    const after = firstExpected === undefined ? (game.variant === 'pawns' ? 0.5 : 1) : forSide(game.variant, this.side, firstExpected);
    this.loss = Math.max(0, best - after);
    if (this.loss < INACCURACY_LOSS) this.solved();
    else this.status = 'wrong';
  }

  /** The person played `usi`: the review's better move is good at once, the mistake again is wrong, another is searched. */
  play(usi: string): void {
    const exercise = this.current();
    if (!exercise || !this.movable()) return;
    this.tried = usi;
    this.loss = undefined;
    this.failure = undefined;
    if (usi === exercise.better?.usi) this.solved();
    else if (usi === exercise.played.usi) this.status = 'wrong';
    else this.status = 'checking';
  }

  private solved(): void {
    this.status = 'good';
    if (this.results[this.index] === undefined) this.results[this.index] = 'solved';
  }

  /** Shows the review's better move. */
  showAnswer(): void {
    if (!this.current() || this.status === 'good') return;
    this.results[this.index] ??= 'shown';
    this.status = 'shown';
  }

  /** Leaves this mistake unsolved and goes to the next. */
  skip(): void {
    if (!this.current()) return;
    this.results[this.index] ??= 'skipped';
    this.next();
  }

  /** Goes to the next mistake, or to the summary after the last. */
  next(): void {
    if (this.status === 'done') return;
    if (this.index + 1 >= this.exercises.length) {
      this.status = 'done';
      this.tried = undefined;
      return;
    }
    this.goTo(this.index + 1);
  }

  private goTo(index: number): void {
    this.index = index;
    this.status = 'find';
    this.tried = undefined;
    this.loss = undefined;
    this.failure = undefined;
    this.legal = [];
  }

  /** How the mistakes ended, for the summary. */
  summary(): { total: number; solved: number; shown: number; skipped: number } {
    const count = (result: ExerciseResult): number => this.results.filter((r) => r === result).length;
    return { total: this.exercises.length, solved: count('solved'), shown: count('shown'), skipped: count('skipped') };
  }
}

/** The side whose mistakes to learn from: the one this page plays, else the first with any. */
export function learnSide(state: GameState, seats: Color[]): Color | undefined {
  const review = state.review;
  if (!review) return undefined;
  const candidates = seats.length === 1 ? seats : colorsOf(state.variant);
  return candidates.find((side) => exercisesOf(state, review, side).length > 0) ?? (seats.length === 1 ? seats[0] : undefined);
}
