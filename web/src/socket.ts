// The game's WebSocket (docs/API.md): the states the server pushes, and
// this page's analysis and review.

import type { Analysis, GameState, ReviewProgress } from './api';

/** What the live connection tells the page. */
export interface LiveHandlers {
  onState(state: GameState): void;
  onAnalysis(analysis: Analysis): void;
  /** A refusal of a request made on the connection (analysis, review). */
  /** A refusal; `engine` names the engine of a refused analysis request. */
  onError(message: string, engine?: string): void;
  onReview(progress: ReviewProgress): void;
  /** The server closed the connection with a Close code and a reason (it reconnects). */
  onClosed(code: number, reason: string): void;
}

/** An analysis asked of the server: the position after move `ply`, then `moves`, with `lines` lines, by `engine` (Koma's own when absent). */
export interface AnalysisAsk {
  ply: number;
  moves: string[];
  lines: number;
  engine?: string;
}

/** What the state needs of a live connection (a stand-in in the unit tests). */
export interface LiveConnection {
  /** Asks for the analysis of the position after move `ply`, then `moves`; `undefined` stops it. */
  analyse(request?: AnalysisAsk): void;
  /** The same for the second engine, analysing beside the first (`undefined` stops it). */
  analyseSecond?(request?: AnalysisAsk): void;
  /** Asks for the game's review, by `engine` (Koma's own when absent; `false`: stops it). */
  review(start: boolean, engine?: string): void;
  close(): void;
}

/** The game's WebSocket: its states, and this page's analysis; reconnects while the page keeps it open. */
export class Live implements LiveConnection {
  private socket?: WebSocket;
  private closed = false;
  private retry = 500;
  /** The analyses asked for (the first engine's and the second's), sent again when the connection is made again. */
  private readonly asked: { main?: { engine: string; text: string }; second?: { engine: string; text: string } } = {};
  /** Whether a review was asked for and has not ended: asked again on a new connection. */
  private reviewing = false;

  constructor(
    private readonly id: string,
    private readonly handlers: LiveHandlers,
  ) {
    this.open();
  }

  /** Asks for the analysis of the position after move `ply`, then `moves`; `undefined` stops it. */
  analyse(request?: AnalysisAsk): void {
    this.ask('main', request);
  }

  /** The same for the second engine. */
  analyseSecond(request?: AnalysisAsk): void {
    this.ask('second', request);
  }

  /** The server keeps one analysis per engine: a slot whose engine changes stops the old one's first. */
  private ask(slot: 'main' | 'second', request?: AnalysisAsk): void {
    const current = this.asked[slot];
    const text = request ? JSON.stringify({ type: 'analyse', ...request }) : undefined;
    if (text === current?.text) return;
    const engine = request?.engine ?? 'koma';
    // An engine the other slot has just asked is the other's now: the
    // server's one analysis per engine went to it, and is not stopped.
    const other = this.asked[slot === 'main' ? 'second' : 'main'];
    const stale = current && (!request || current.engine !== engine) && other?.engine !== current.engine;
    if (current && stale) this.send(JSON.stringify({ type: 'stop-analysis', engine: current.engine }));
    this.asked[slot] = text ? { engine, text } : undefined;
    if (text) this.send(text);
  }

  private send(text: string): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  /** Asks for the game's review, by `engine` (Koma's own when absent; `false`: stops it). */
  review(start: boolean, engine?: string): void {
    if (!start && !this.reviewing) return;
    this.reviewing = start;
    this.reviewRequest = JSON.stringify(start ? (engine && engine !== 'koma' ? { type: 'review', engine } : { type: 'review' }) : { type: 'stop-review' });
    this.send(this.reviewRequest);
  }

  /** The last review request, sent again on a new connection while the review runs. */
  private reviewRequest = JSON.stringify({ type: 'review' });

  private open(): void {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}/api/games/${encodeURIComponent(this.id)}/ws`);
    this.socket = socket;
    socket.onopen = () => {
      for (const asked of [this.asked.main, this.asked.second]) if (asked) socket.send(asked.text);
      if (this.reviewing) socket.send(this.reviewRequest);
    };
    socket.onmessage = (event) => {
      this.retry = 500;
      let message: { type: string; state?: GameState; error?: string; engine?: unknown };
      try {
        message = JSON.parse(String(event.data)) as typeof message;
      } catch {
        // Not ours to judge: the HTTP answers carry the state too.
        return;
      }
      if (message.type === 'analysis') {
        this.handlers.onAnalysis(message as unknown as Analysis);
        return;
      }
      if (message.type === 'review') {
        const progress = message as unknown as ReviewProgress;
        if (progress.status === 'done' || progress.status === 'failed') this.reviewing = false;
        this.handlers.onReview(progress);
        return;
      }
      if (message.type === 'error' && message.error) this.handlers.onError(message.error, typeof message.engine === 'string' ? message.engine : undefined);
      if (message.state) this.handlers.onState(message.state);
    };
    socket.onclose = (event) => {
      if (this.closed) return;
      // The server says why it closed (docs/API.md): a message too large,
      // one that is not UTF-8, a protocol error, no answer to its pings,
      // too many messages, or its stopping. Say so while reconnecting.
      if (worthSaying(event.code, event.reason)) this.handlers.onClosed(event.code, event.reason);
      window.setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 10_000);
    };
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }
}

/** Whether a WebSocket's Close is worth telling the player: not a normal close, nor one without a reason. */
export function worthSaying(code: number, reason: string): boolean {
  return !(code === 1000 || code === 1005 || code === 1006 || !reason);
}
