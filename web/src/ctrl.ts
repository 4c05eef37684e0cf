// The page's state and what the player can do: it asks the server for the
// game, keeps what the server answers, and tells the page to draw itself
// again (`redraw`). It writes nothing to the page: the views (view/) draw
// from it. It never decides what is legal: the server's answer is shown.
// Changes carry the seat token of the side acting (seats.ts); a page that
// holds no seat of a game only watches it.

import { ApiError, type Color, type GameState } from './api';
import { AnalysisCtrl } from './analysis';
import type { Arrow, BoardView } from './board';
import { ClockCtrl } from './clock';
import { setLanguage, t, type Language } from './i18n';
import { MateCtrl } from './mate';
import { currentShogiNotation, isShogiNotation, setShogiNotation, type ShogiNotation, type SpearNotation } from './notation';
import { DEFAULT_THEME_SETTINGS, readThemeSettings, writeThemeSettings, type ThemeSettings } from './themes';
import { NewGameForm } from './newgame';
import { ReviewCtrl } from './review';
import type { Route } from './route';
import { forgetSeats, keepNewGame, keepSeats, Seating } from './seats';
import type { LiveConnection, LiveHandlers } from './socket';
import { colorsOf, opposite, sideOf } from './sides';
import { takebackNews } from './takeback';
import { rematchNews } from './rematch';
import { SAVE_FORMATS } from './records';
import type { Server } from './xhr';
import { isPieceSet, VARIANTS, type PieceSet, type VariantInfo } from './variants';

const STORAGE_SPEAR_NOTATION = 'koma.spearNotation';
/** The record's header fields a player may edit, as the API names them. */
export const DETAIL_FIELDS = ['sente', 'gote', 'event', 'site', 'startTime', 'timeControl', 'opening'];
const STORAGE_SHOGI_NOTATION = 'koma.notation';

/**
 * The board's sounds as the state uses them (sound/index.ts's `Sounds`):
 * told of every state, and of the settings the page changes.
 */
export interface SoundControl {
  onState(previous: GameState | null, next: GameState, mySide: Color | null): void;
  stop(): void;
  readonly volume: number;
  readonly muted: boolean;
  setVolume(volume: number): void;
  setMuted(muted: boolean): void;
  setLang(lang: Language): void;
}

/** What the state needs from outside: the server, the live connection, the address bar, the clock. */
export interface CtrlDeps {
  server: Server;
  connect(id: string, handlers: LiveHandlers): LiveConnection;
  /** Puts the game's id in the address. */
  showGameId(id: string): void;
  now?: () => number;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  /** The board's sounds; none in the unit tests. */
  sounds?: SoundControl;
  /** Puts the page's colours, board and pieces in force (themes.ts's `applyTheme`). */
  applyTheme?: (settings: ThemeSettings) => void;
}

/**
 * A line of the status: the page's own words (`key` in the message files),
 * or a refusal's sentence (`text`, the server's, in English) with its
 * `code` when it has one, by which another language may say it.
 */
export interface Message {
  kind: 'info' | 'error';
  key?: string;
  params?: Record<string, string | number>;
  text?: string;
  code?: string;
}

/** The message of a refusal. */
const refusal = (error: ApiError): Message => ({ kind: 'error', text: error.message, code: error.code, params: { status: error.status } });

/** The record panel's fields. */
export interface RecordFields {
  text: string;
  /** '' lets the server guess. */
  format: string;
  variant: string;
  saveFormat: string;
}

export class Ctrl {
  state?: GameState;
  /** When the state arrived (`now()`): the clocks count from then. */
  receivedAt = 0;
  /** The seats this page holds in the game shown. */
  seating?: Seating;
  /** The move whose position is shown; `undefined` follows the game. */
  shownPly?: number;
  orientation: Color = 'sente';
  spearNotation: SpearNotation;
  /** The page's colours, the board's and the piece set (themes.ts), as kept by the browser. */
  theme: ThemeSettings;
  message: Message = { kind: 'info' };
  /** Whether the box naming the winner is open. */
  resultShown = false;
  /**
   * Counts the times the board must show the game again although its view
   * did not change: a move the widget made and the server refused or never
   * got must be put back.
   */
  boardResets = 0;
  /** The link whose Copy button reports, and what it says. */
  copied?: { link: string; done: boolean };
  readonly form: NewGameForm;
  readonly analysis = new AnalysisCtrl();
  readonly mate = new MateCtrl();
  readonly review = new ReviewCtrl();
  readonly clock: ClockCtrl;
  readonly record: RecordFields = { text: '', format: '', variant: '', saveFormat: '' };
  private live?: LiveConnection;
  /** The change on its way to the server, if any. */
  private pending?: Promise<void>;
  /** The finished game whose rematch this page is moving to, once asked. */
  private joining?: string;
  private readonly now: () => number;
  private readonly storage?: Pick<Storage, 'getItem' | 'setItem'>;

  constructor(
    private readonly deps: CtrlDeps,
    /** Draws the page again from this state. */
    private readonly redraw: () => void,
  ) {
    this.now = deps.now ?? (() => performance.now());
    this.storage = deps.storage ?? globalThis.localStorage;
    this.theme = this.storage ? readThemeSettings(this.storage) : { ...DEFAULT_THEME_SETTINGS };
    const notation = this.storage?.getItem(STORAGE_SHOGI_NOTATION);
    if (isShogiNotation(notation)) setShogiNotation(notation);
    this.spearNotation = this.storage?.getItem(STORAGE_SPEAR_NOTATION) === 'japanese' ? 'japanese' : 'seed';
    this.form = new NewGameForm(this.storage);
    this.clock = new ClockCtrl(
      () => this.redraw(),
      () => void this.refresh(),
      this.now,
    );
  }

  /** Shows the game the address names, or starts one. */
  async start(route: Route | undefined): Promise<void> {
    if (route) await this.follow(route);
    else await this.newGame();
  }

  /** Shows the game the address names; a seat link also hands this page a seat. */
  async follow(route: Route | undefined): Promise<void> {
    if (!route) return;
    // The token leaves the address bar at once (it is kept in localStorage).
    if (route.seat) this.deps.showGameId(route.id);
    if (route.id !== this.state?.id) await this.openGame(route.id, route.seat);
    else if (route.seat) {
      this.takeSeat(this.state, route.seat);
      this.apply(this.state);
    }
  }

  private takeSeat(state: GameState, seat: { side: string; token: string }): void {
    const side = sideOf(state.variant, seat.side);
    if (side) keepSeats(state.id, { [side]: seat.token });
  }

  // ---- what the page shows ----

  variantInfo(): VariantInfo | undefined {
    return this.state ? VARIANTS[this.state.variant] : undefined;
  }

  /** The move whose position is shown. */
  shown(): number {
    return this.shownPly ?? this.state?.ply ?? 0;
  }

  /** Whether an earlier position than the game's is shown. */
  reviewing(): boolean {
    return !!this.state && this.shown() < this.state.ply;
  }

  /** The seats held, from the state when none were read yet. */
  seats(): Seating | undefined {
    return this.seating ?? (this.state ? Seating.of(this.state) : undefined);
  }

  /** Whether the computer is to move: the server plays its move and sends it over the WebSocket. */
  computerThinking(): boolean {
    const state = this.state;
    return !!state && state.opponent.kind === 'computer' && state.opponent.color === state.turn && !state.outcome;
  }

  /** The side to move after move `ply`. */
  turnAt(ply: number): Color {
    const state = this.state!;
    const [first, second] = colorsOf(state.variant);
    const turnLetter = state.start.split(' ')[1];
    const starter = state.variant === 'pawns' ? (turnLetter === 'b' ? second : first) : turnLetter === 'w' ? second : first;
    return ply % 2 === 0 ? starter : opposite(state.variant, starter);
  }

  /** What the board shows: a variation, an earlier position, or the game with what this page may play. */
  boardView(): BoardView | undefined {
    const state = this.state;
    if (!state) return undefined;
    const variation = this.mate.variation() ?? this.analysis.variationView(state.variant);
    if (variation) return variation;
    const shown = this.shown();
    if (shown < state.ply)
      return {
        position: shown === 0 ? state.start : state.moves[shown - 1].position,
        lastMove: shown === 0 ? null : state.moves[shown - 1].usi,
        check: false,
        turn: this.turnAt(shown),
        legalMoves: [],
        movable: 'none',
      };
    const sides = this.seats()?.sides ?? [];
    return {
      position: state.position,
      lastMove: state.lastMove,
      check: state.check,
      turn: state.turn,
      legalMoves: state.outcome ? [] : state.legalMoves,
      movable: sides.length === 0 ? 'none' : sides.length === 1 ? sides[0] : 'both',
    };
  }

  /**
   * The arrows on the board, none while a mate line is shown: the engine's
   * best move in the position shown, and the move the review found better
   * than the one played to reach it (as lichess draws it, beside the move
   * played).
   */
  arrows(): Arrow[] {
    if (this.mate.variation() || !this.state) return [];
    const arrows: Arrow[] = [];
    const best = this.analysis.bestMove();
    if (best) arrows.push({ usi: best, kind: 'best' });
    const shown = this.shown();
    const better = shown > 0 ? this.state.review?.moves[shown - 1]?.better : undefined;
    if (better) arrows.push({ usi: better.usi, kind: 'better', color: this.state.moves[shown - 1].color });
    return arrows;
  }

  // ---- talking to the server ----

  private async openGame(id: string, seat?: { side: string; token: string }): Promise<void> {
    try {
      const state = await this.deps.server.getGame(id);
      if (seat) this.takeSeat(state, seat);
      this.apply(state);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.message = { kind: 'error', key: 'message.newInstead', params: { error: error.message } };
      await this.newGame(true);
    }
  }

  /** Asks the server for the game as it is (the clock shows zero: the server decides). */
  async refresh(): Promise<void> {
    const id = this.state?.id;
    if (!id) return;
    try {
      const state = await this.deps.server.getGame(id);
      if (state.id === this.state?.id) this.apply(state);
    } catch {
      // The WebSocket brings the state too; the clocks will ask again.
    }
  }

  /** Starts the game the form describes. */
  async newGame(keepMessage = false): Promise<void> {
    const choice = this.form.read();
    try {
      const state = await this.deps.server.newGame(choice.variant, choice.options);
      keepNewGame(state, choice.mine);
      if (!keepMessage) this.message = { kind: 'info' };
      this.apply(state);
      if (state.mode === 'shared') this.say({ kind: 'info', key: 'message.sendLink' });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.say(refusal(error));
      // The current game stays; with none yet, a game between people starts.
      if (!this.state && (choice.options.opponent.kind !== 'human' || choice.options.mode === 'shared')) {
        this.form.opponent = 'human';
        await this.newGame(true);
      }
    }
  }

  /**
   * Sends a change; a refusal shows the server's sentence and its state.
   * One change at a time: a button pressed meanwhile does nothing, while a
   * move made on the board meanwhile (`wait`) is sent once the change before
   * it is answered, with the game as it then is.
   */
  private async change(request: (state: GameState, seating: Seating) => Promise<GameState>, wait = false): Promise<void> {
    if (this.pending && wait) await this.pending;
    if (this.pending || !this.state) {
      // Dropped: the board must not keep a move that was not sent.
      this.boardResets++;
      this.changed();
      return;
    }
    const state = this.state;
    const seating = this.seats()!;
    const sending = (async () => {
      try {
        const next = await request(state, seating);
        this.message = { kind: 'info' };
        this.apply(next);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // A seat link with a token the game does not know: this page only watches.
        if (error.code === 'bad-token') {
          forgetSeats(state.id);
          this.seating = undefined;
        }
        this.message = refusal(error);
        // The widget moved the piece: put it back where the server has it.
        this.boardResets++;
        if (error.state) this.apply(error.state);
        else this.changed();
      }
    })();
    this.pending = sending;
    try {
      await sending;
    } finally {
      this.pending = undefined;
    }
  }

  /** Takes a state from the server: the newest of a game wins. */
  apply(next: GameState): void {
    const previous = this.state;
    const sameGame = previous?.id === next.id;
    if (sameGame && previous && next.version < previous.version) {
      this.changed();
      return;
    }
    this.state = next;
    this.receivedAt = this.now();
    const seating = Seating.of(next);
    const seatsChanged = seating.sides.join() !== this.seating?.sides.join();
    this.seating = seating;
    // Sounds speak for the one side this page plays; with both sides here
    // (or none: a spectator) the end of the game is neither won nor lost.
    if (!sameGame) this.deps.sounds?.stop();
    this.deps.sounds?.onState(sameGame ? (previous ?? null) : null, next, seating.sides.length === 1 ? seating.sides[0] : null);
    if (!sameGame) {
      this.shownPly = undefined;
      this.live?.close();
      this.clock.clear();
      this.live = this.deps.connect(next.id, {
        onState: (state) => this.apply(state),
        onAnalysis: (analysis) => {
          if (this.analysis.receive(analysis)) this.changed();
        },
        onError: (message) => {
          if (this.review.refused(message)) this.live?.review(false);
          else if (!this.analysis.refused(message)) return;
          this.changed();
        },
        onReview: (progress) => {
          this.review.receive(progress);
          this.changed();
        },
        onClosed: (code, reason) => this.say({ kind: 'error', key: 'message.closed', params: { code, reason } }),
      });
      this.deps.showGameId(next.id);
      this.form.variant = next.variant;
      this.resultShown = false;
      this.details = undefined;
      this.record.saveFormat = this.saveFormatFor(next);
    } else if (this.shownPly !== undefined && this.shownPly > next.ply) {
      this.shownPly = undefined;
    }
    if (!sameGame || seatsChanged) this.orientation = this.bottomSide(next, seating);
    const news = sameGame && previous ? takebackNews(previous, next, seating) : undefined;
    if (news) this.message = { kind: 'info', ...news };
    if (sameGame && previous && !previous.outcome && next.outcome) this.resultShown = true;
    // The other player's offer, decline or cancel is answered in the result box.
    if (rematchNews(sameGame ? previous : undefined, next, seating)) this.resultShown = true;
    this.changed();
    // The rematch was made (the other player accepted this page's offer):
    // this page asks for its own seat in it and moves there.
    // Seen happen, not on opening an old game whose rematch was played.
    const made = next.rematch?.game && sameGame && !previous?.rematch?.game;
    if (made && next.outcome && !seating.watching) void this.joinRematch(next.id);
  }

  /** The save format kept when the game changes, if the new game has it. */
  private saveFormatFor(state: GameState): string {
    const formats = SAVE_FORMATS[state.variant];
    return formats.some(([value]) => value === this.record.saveFormat) ? this.record.saveFormat : formats[0][0];
  }

  /**
   * The side at the bottom: the player's (the only seat held, or the
   * computer's opponent); else the first mover, except in Spear, which is
   * drawn as its seed draws it, White (the second mover) at the bottom.
   */
  private bottomSide(state: GameState, seating: Seating): Color {
    if (seating.sides.length === 1) return seating.sides[0];
    const [first, second] = colorsOf(state.variant);
    if (state.opponent.kind === 'computer') return state.opponent.color === first ? second : first;
    return state.variant === 'spear' ? second : first;
  }

  /** The parts that follow the position shown catch up, then the page is drawn again. */
  private changed(): void {
    const state = this.state;
    if (state) {
      const shown = this.shown();
      this.mate.sync(state, shown);
      const request = this.analysis.sync(state, shown);
      if (request !== undefined) this.live?.analyse(request ?? undefined);
      this.review.sync(state);
      this.clock.sync(state, this.receivedAt);
    }
    this.redraw();
  }

  /** Shows a message in the status. */
  say(message: Message): void {
    this.message = message;
    this.redraw();
  }

  // ---- what the player does ----

  /** A move made on the board (USI/UCI). */
  playMove(usi: string): void {
    void this.change((state, seating) => this.deps.server.playMove(state.id, usi, state.ply, seating.tokenFor(state.turn)), true);
  }

  /** Shows the position after move `ply` (clamped; the last follows the game). */
  goTo(ply: number): void {
    const state = this.state;
    if (!state) return;
    const target = Math.max(0, Math.min(ply, state.ply));
    this.shownPly = target >= state.ply ? undefined : target;
    this.changed();
  }

  flip(): void {
    if (!this.state) return;
    this.orientation = opposite(this.state.variant, this.orientation);
    this.changed();
  }

  /** Takes back (against the computer: with its reply), or asks to in a game between two machines. */
  undo(): void {
    this.shownPly = undefined;
    void this.change((state, seating) => {
      const seat = state.mode === 'shared' ? seating.takebackSeat(state) : state.turn;
      return this.deps.server.undo(state.id, state.ply, seating.tokenFor(...(seat ? [seat] : [])));
    });
  }

  /** Accepts (or declines) the other player's request to take back. */
  answerTakeback(decline: boolean): void {
    this.shownPly = undefined;
    void this.change((state, seating) =>
      this.deps.server.undo(state.id, state.ply, seating.tokenFor(seating.takebackSeat(state) ?? state.turn), decline),
    );
  }

  declare(): void {
    this.shownPly = undefined;
    void this.change((state, seating) => this.deps.server.declare(state.id, state.ply, seating.tokenFor(state.turn)));
  }

  resign(): void {
    void this.change((state, seating) => this.deps.server.resign(state.id, state.ply, seating.tokenFor(state.turn)));
  }

  closeResult(): void {
    this.resultShown = false;
    this.redraw();
  }

  /**
   * Rematch from the result box: at one screen the same game starts at once
   * with the colours swapped; between two machines this offers one, or
   * accepts the other player's offer (then both pages move to the new game).
   */
  rematch(): void {
    void this.change(async (state, seating) => this.enterRematch(await this.deps.server.rematch(state.id, seating.tokenFor())));
  }

  /** Declines the other player's offer of a rematch, or cancels this page's own. */
  declineRematch(): void {
    void this.change((state, seating) => this.deps.server.rematch(state.id, seating.tokenFor(), true));
  }

  /** The record's details being edited (the form's fields), if the form is open. */
  details?: Record<string, string>;

  /** Opens the form of the record's details, filled with the game's. */
  editDetails(): void {
    const state = this.state;
    if (!state) return;
    const text = (key: string): string => (typeof state.headers[key] === 'string' ? (state.headers[key] as string) : '');
    this.details = Object.fromEntries(DETAIL_FIELDS.map((key) => [key, text(key)]));
    this.details.comment = (state.comments ?? []).join('\n');
    this.redraw();
  }

  /** Closes the form of the record's details, keeping nothing. */
  cancelDetails(): void {
    this.details = undefined;
    this.redraw();
  }

  /** Saves the record's details: the server checks and keeps them, and the form closes. */
  saveDetails(): void {
    const details = this.details;
    if (!details) return;
    void this.change(async (state, seating) => {
      const next = await this.deps.server.editDetails(state.id, seating.tokenFor(), details);
      this.details = undefined;
      return next;
    });
  }

  /** Follows the players to their rematch, for a page that watches. */
  watchRematch(): void {
    const next = this.state?.rematch?.game;
    if (next) void this.openGame(next);
  }

  /** Keeps this page's seats in the new game that a rematch answer brings. */
  private enterRematch(next: GameState): GameState {
    if (next.id !== this.state?.id) keepNewGame(next);
    return next;
  }

  /** Asks once for this page's seat in the rematch of `id`, and moves there. */
  private async joinRematch(id: string): Promise<void> {
    if (this.joining === id) return;
    this.joining = id;
    // This page's own request (an acceptance) may bring the new game itself.
    if (this.pending) await this.pending.catch(() => undefined);
    const state = this.state;
    if (state?.id !== id) return;
    try {
      const next = this.enterRematch(await this.deps.server.rematch(id, this.seats()?.tokenFor()));
      if (this.state?.id === id) this.apply(next);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.joining = undefined;
      this.say(refusal(error));
    }
  }

  /** New game from the result box: the game just played again. */
  newGameAfterResult(): void {
    this.resultShown = false;
    if (this.state) this.form.variant = this.state.variant;
    void this.newGame();
  }

  /** The form changed: drawn again (the options it shows follow it). */
  formChanged(): void {
    this.redraw();
  }

  /** The action of a key pressed on the page, if it has one. */
  keyAction(key: string): (() => void) | undefined {
    const actions: Record<string, () => void> = {
      ArrowLeft: () => this.goTo(this.shown() - 1),
      ArrowRight: () => this.goTo(this.shown() + 1),
      ArrowUp: () => this.goTo(0),
      ArrowDown: () => this.goTo(Infinity),
      Home: () => this.goTo(0),
      End: () => this.goTo(Infinity),
      f: () => this.flip(),
      Escape: () => this.closeResult(),
    };
    return actions[key];
  }

  setAnalysis(on: boolean): void {
    this.analysis.setOn(on);
    this.changed();
  }

  /** The page was hidden or shown again: the analysis pauses meanwhile. */
  setPageHidden(hidden: boolean): void {
    this.analysis.hidden = hidden;
    this.changed();
  }

  /** Steps into an analysis line up to its move `step`. */
  /** Shows an analysis line whole, or on one row again. */
  toggleAnalysisLine(index: number): void {
    this.analysis.toggleLine(index);
    this.redraw();
  }

  analysisStep(line: number, step: number): void {
    const moves = this.analysis.analysis?.lines[line]?.moves;
    if (!moves) return;
    this.analysis.stepInto(moves, step);
    this.changed();
  }

  /** Back to move `index` of the analysis variation; -1 leaves it. */
  analysisBack(index: number): void {
    this.analysis.backTo(index);
    this.changed();
  }

  findMate(): void {
    const state = this.state;
    if (!state) return;
    void this.mate.find(state, this.shown(), this.deps.server.findMate, () => this.changed());
  }

  /** Shows step `index` of the mate line (`undefined`: back to the game). */
  mateStep(index: number | undefined): void {
    this.mate.show(index);
    this.changed();
  }

  askReview(): void {
    if (!this.review.ask()) return;
    this.live?.review(true);
    this.changed();
  }

  setSpearNotation(notation: SpearNotation): void {
    this.spearNotation = notation;
    this.storage?.setItem(STORAGE_SPEAR_NOTATION, notation);
    this.redraw();
  }

  /** Changes the page's language (remembered by the browser). */
  setLanguage(next: Language): void {
    setLanguage(next);
    this.deps.sounds?.setLang(next);
    this.redraw();
  }

  /** The piece set chosen. */
  get pieceSet(): PieceSet {
    return this.theme.pieces;
  }

  setPieceSet(set: PieceSet): void {
    this.setTheme({ ...this.theme, pieces: isPieceSet(set) ? set : 'kanji' });
  }

  /** Changes the page's colours, the board's or the piece set, and keeps the choice. */
  setTheme(settings: ThemeSettings): void {
    this.theme = settings;
    if (this.storage) writeThemeSettings(settings, this.storage);
    this.deps.applyTheme?.(settings);
    this.redraw();
  }

  /** How shogi and minishogi moves are written. */
  get shogiNotation(): ShogiNotation {
    return currentShogiNotation();
  }

  setShogiNotation(notation: ShogiNotation): void {
    setShogiNotation(notation);
    this.storage?.setItem(STORAGE_SHOGI_NOTATION, notation);
    this.redraw();
  }

  /** The sounds' volume (0 to 100) and mute, when the page has sound. */
  get sound(): { volume: number; muted: boolean } | undefined {
    const sounds = this.deps.sounds;
    return sounds && { volume: sounds.volume, muted: sounds.muted };
  }

  setVolume(volume: number): void {
    this.deps.sounds?.setVolume(volume);
    this.redraw();
  }

  setMuted(muted: boolean): void {
    this.deps.sounds?.setMuted(muted);
    this.redraw();
  }

  /** A Copy button's outcome, shown for two seconds. */
  reportCopy(link: string, done: boolean): void {
    const copied = { link, done };
    this.copied = copied;
    this.redraw();
    setTimeout(() => {
      if (this.copied !== copied) return;
      this.copied = undefined;
      this.redraw();
    }, 2000);
  }

  // ---- records ----

  private opened(state: GameState, what: string): void {
    keepNewGame(state);
    this.apply(state);
    this.shownPly = state.ply > 0 ? 0 : undefined;
    this.message = { kind: 'info', key: 'message.opened', params: { what, count: state.ply } };
    this.changed();
  }

  private failed(error: unknown): void {
    if (!(error instanceof ApiError)) throw error;
    this.say(refusal(error));
  }

  /** Opens a record file chosen by the player. */
  async openFile(file: File): Promise<void> {
    await this.deps.server.openFile(file, this.record.format, this.record.variant).then(
      (state) => this.opened(state, file.name),
      (error: unknown) => this.failed(error),
    );
  }

  /** Opens the pasted record. */
  async openPasted(): Promise<void> {
    const text = this.record.text;
    if (!text.trim()) {
      this.say({ kind: 'error', key: 'message.pasteFirst' });
      return;
    }
    await this.deps.server.openText(text, this.record.format, this.record.variant, this.form.variant).then(
      (state) => this.opened(state, t('message.pastedRecord')),
      (error: unknown) => this.failed(error),
    );
  }

  /** Downloads the game's record. */
  async save(): Promise<void> {
    if (!this.state) return;
    await this.deps.server.saveRecord(this.state.id, this.record.saveFormat).then(
      (name) => this.say({ kind: 'info', key: 'message.saved', params: { name } }),
      (error: unknown) => this.failed(error),
    );
  }
}
