// The vocabulary of `koma serve`'s JSON and WebSocket API (docs/API.md),
// shared by the HTTP calls (xhr.ts), the live connection (socket.ts), the
// state (ctrl.ts) and the views. The server is authoritative: every answer
// carries the whole game state.

import type { VariantId } from './variants';

export type Color = 'sente' | 'gote' | 'white' | 'black';

/** A shogi-family move in each notation a player may choose (docs/API.md, Notations). */
export interface MoveNotations {
  /** As KI2 writes it: `▲７六歩`, `△同　銀`, `▲５八金右`. */
  japanese: string;
  /** As KIF writes it, with the origin square: `▲７六歩(77)`. */
  japaneseOrigin: string;
  /** Hodges's Western notation: `P-7f`, `Sx5c+`, `B*5e`; absent in Spear. */
  western?: string;
  /** USI: `7g7f`, `8h2b+`, `P*5e`. */
  usi: string;
  /** Kitao–Kawasaki as lishogi writes it: `歩-76`, `角x22+`; absent in Spear. */
  kitaoKawasaki?: string;
}

export interface PlayedMove {
  usi: string;
  notation: string;
  /** The shogi games only: the move in every notation. */
  notations?: MoveNotations;
  color: Color;
  position: string;
  /** Whether the position after it is check. */
  check: boolean;
  /** Spear only: the move as its seed writes it, `K 11 12`. */
  seed?: string;
  /** An imported record's comments after it. */
  comments?: string[];
  /** The time its player spent on it, as the imported record says. */
  milliseconds?: number;
}

export interface Outcome {
  winner: Color | null;
  reason: string;
  message: string;
}

/** The computer's level: the engine at 1 to 20, or the perfect player of Pawns-Only Chess. */
export type Level = number | 'perfect';
/**
 * Who plays the other side. The computer is Koma's engine at `level`, or the
 * registered engine `engine` (which plays at its own strength: a request
 * naming one leaves out the level, and the server's state says 20).
 */
export type Opponent = { kind: 'human' } | { kind: 'computer'; level?: Level; color: Color; engine?: string };

/** `local`: one page holds every seat; `shared`: each player has a seat link. */
export type Mode = 'local' | 'shared';

/** A side's time left when the state was made. */
export interface SideClock {
  mainMs: number;
  byoyomiMs: number;
}

/** The clocks of a timed game; each side's time is under its name (`sente`, …). */
export type ClockState = {
  initialMs: number;
  incrementMs: number;
  byoyomiMs: number;
  /** The side whose time runs, or null while the clocks stand. */
  running: Color | null;
} & Partial<Record<Color, SideClock>>;

/** A time control in seconds, as `POST /api/games` takes it. */
export interface TimeControl {
  initial?: number;
  increment?: number;
  byoyomi?: number;
}

/** The seat tokens by side: only in the answer that creates a game. */
export type SeatTokens = Partial<Record<Color, string>>;

/** A shogi handicap: the API's name, and how people say it. */
export interface Handicap {
  name: string;
  title: string;
  japanese: string;
}

/** Shogi's impasse rule, and what a declaration by the side to move would give now. */
export interface Impasse {
  /** 27 (the CSA rule) or 24 (the JSA amateur rule). */
  rule: 27 | 24;
  /** Set when the side to move may declare now. */
  declaration: 'win' | 'draw' | null;
  /** Why it may not, as a sentence. */
  shortfall: string | null;
}

export interface GameState {
  id: string;
  variant: VariantId;
  version: number;
  ply: number;
  start: string;
  /** The standard shogi handicap the game starts from, if any. */
  handicap?: Handicap;
  /** Shogi only. */
  impasse?: Impasse;
  position: string;
  turn: Color;
  check: boolean;
  hands: Record<string, Record<string, number>> | null;
  legalMoves: string[];
  moves: PlayedMove[];
  lastMove: string | null;
  outcome: Outcome | null;
  headers: Record<string, unknown>;
  opponent: Opponent;
  mode: Mode;
  /** Whether changes need a seat token (false only for games kept before seats). */
  guarded: boolean;
  /** In a shared game, the side that asked to take a move back. */
  takeback: Color | null;
  clock: ClockState | null;
  seats?: SeatTokens;
  /** An imported record's comments before the first move. */
  comments?: string[];
  /** The engine's review of the game, once one was made. */
  review?: GameReview;
  /** The computer's move waiting for an engine (all busy with other games), as at this state. */
  computerWaiting?: ComputerWaiting;
  /** A finished game's rematch: the offer waiting, the last one dropped, the new game once made. */
  rematch?: RematchState;
}

/** A finished game's rematch as the server keeps it (docs/API.md, "Rematch"). */
export interface RematchState {
  /** The side that offered, waiting for the other's answer. */
  offeredBy: Color | null;
  /** The side that last dropped an offer: the other's, declined, or its own (`cancelled`). */
  declinedBy: Color | null;
  cancelled: boolean;
  /** The new game's id, once made. */
  game: string | null;
}

/** Where the computer's move stands in the server's queue for an engine. */
export interface ComputerWaiting {
  /** When it began to wait, ms since the Unix epoch. */
  since: number;
  /** Other games' computer moves before it. */
  ahead: number;
  /** The engines the computer opponents share. */
  engines: number;
}

/** How bad a move's loss is. */
export type MoveLabel = 'inaccuracy' | 'mistake' | 'blunder';

/** The engine's judgement of one position of a reviewed game. */
export interface PositionReview {
  ply: number;
  evaluation: Score;
  /** The engine's move there; null where the game is over. */
  best: PlayedMove | null;
  depth: number;
}

/** What one move of a reviewed game lost. */
export interface MoveReview {
  /** 1 for the first move. */
  ply: number;
  /** The expected score given up, 0 to 1. */
  loss: number;
  label: MoveLabel | null;
  /** 0 to 100. */
  accuracy: number;
  /** The engine's move in its place, when this one lost something. */
  better: PlayedMove | null;
}

/** One side's figures over a reviewed game. */
export interface SideReview {
  moves: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  accuracy: number;
  averageLoss: number;
}

/** A game's review (docs/API.md, *Game review over the WebSocket*). */
export interface GameReview {
  /** The engine that reviewed it: "koma" or a registered one's name; older servers leave it out. */
  engine?: string;
  nodes: number;
  /** Every position, the start's first. */
  positions: PositionReview[];
  moves: MoveReview[];
  sides: Partial<Record<Color, SideReview>>;
}

/** Where this page's review of the game stands. */
export interface ReviewProgress {
  type: 'review';
  status: 'waiting' | 'running' | 'done' | 'failed';
  done: number;
  total: number;
  error?: string;
  engines: { thinking: number; cap: number };
}

/** A refusal from the server: its sentence, and the game's state when it sent one. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly state?: GameState,
    /**
     * Why: a seat refused (403: `spectator`, `bad-token`, `not-your-turn`,
     * `wrong-side`), or no answer from the server (`unreachable`, `not-json`).
     */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface NewGameOptions {
  opponent: Opponent;
  mode?: Mode;
  clock?: TimeControl;
  position?: string;
  /** A shogi handicap by its API name (`two-piece`): the giver, Gote, moves first. */
  handicap?: string;
  /** Shogi's impasse rule: 27 points (default) or 24. */
  impasse?: 27 | 24;
}

/** What the server's mate solver found in a position of a game. */
export interface MateFound {
  ply: number;
  /** The engine that searched: `koma` (Koma's own solver) or a registered one. */
  engine?: string;
  answer: 'mate' | 'nomate' | 'unknown';
  /** The mate's length as problems count it (useless interpositions not counted). */
  length: number;
  /** The line, each move as the game's moves are written, to checkmate on
   * the board: it may be longer than `length` by the useless
   * interpositions and their captures. */
  line: PlayedMove[];
  nodes: number;
  milliseconds: number;
}

/**
 * An evaluation from the first player's view: centipawns, or plies to mate
 * (positive when the first player mates), with the first player's expected
 * score (0 to 1) that it means in this game.
 */
export type Score = ({ cp: number } | { mate: number }) & { expected: number };

/** An engine the server analyses with (`GET /api/engines`). */
export interface EngineInfo {
  name: string;
  /** The name it gives itself, once started. */
  idName?: string;
  builtIn: boolean;
  /** The games it plays. */
  games: string[];
  threads: number;
}

/** One of the engine's best lines. */
export interface AnalysisLine {
  score: Score;
  moves: PlayedMove[];
}

/** Where the server's analysis of a position stands (docs/API.md). */
export interface Analysis {
  type: 'analysis';
  /** The engine: "koma" or a registered one's name; older servers leave it out. */
  engine?: string;
  ply: number;
  moves: string[];
  /** The lines asked for (MultiPV); older servers leave it out. */
  multiPv?: number;
  /** Every legal move in the position analysed (USI/UCI). */
  legalMoves?: string[];
  /** "failed": a registered engine that died twice or could not start (`error` says why). */
  status: 'waiting' | 'running' | 'done' | 'failed';
  error?: string;
  depth: number;
  nodes: number;
  milliseconds: number;
  lines: AnalysisLine[];
  engines: { thinking: number; cap: number };
}

