// The page's state and what the player can do: it asks the server for the
// game, keeps what the server answers, and tells the page to draw itself
// again (`redraw`). It writes nothing to the page: the views (view/) draw
// from it. It never decides what is legal: the server's answer is shown.
// Changes carry the seat token of the side acting (seats.ts); a page that
// holds no seat of a game only watches it.

import { ApiError, type Color, type EngineInfo, type GameState } from './api';
import { AnalysisCtrl, BUILT_IN, readLines, STORAGE_ENGINE, STORAGE_LINES, STORAGE_SECOND } from './analysis';
import { ClockCtrl } from './clock';
import { PageSettings, type SoundSettings } from './page-settings';
import { t } from './i18n';
import { LearnCtrl } from './learn';
import { MateCtrl } from './mate';
import type { ThemeSettings } from './themes';
import { NewGameForm } from './newgame';
import { ReviewCtrl } from './review';
import type { PageRoute, Route } from './route';
import { fetchText, RulesPages } from './rules';
import { forgetSeats, keepNewGame, keepSeats, Seating } from './seats';
import type { LiveConnection, LiveHandlers } from './socket';
import { colorsOf, opposite, sideOf } from './sides';
import { takebackNews } from './takeback';
import { rematchNews } from './rematch';
import { SAVE_FORMATS } from './records';
import type { Server } from './xhr';
import { VARIANTS, type VariantId, type VariantInfo } from './variants';

const STORAGE_PREMOVES = 'koma.premoves';

/** A move made while the other side was to move, kept until its reply. */
export interface Premove {
  /** USI/UCI. */
  usi: string;
  /** The game's ply when it was made: it is played only after a later move. */
  ply: number;
}
/** The record's header fields a player may edit, as the API names them. */
export const DETAIL_FIELDS = ['sente', 'gote', 'event', 'site', 'startTime', 'timeControl', 'opening'];

/**
 * The board's sounds as the state uses them (sound/index.ts's `Sounds`):
 * told of every state, and of the settings the page changes.
 */
export interface SoundControl extends SoundSettings {
  onState(previous: GameState | null, next: GameState, mySide: Color | null): void;
  stop(): void;
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
  /** Loads a text of the page's own server (a rules page); the browser's fetch by default. */
  loadText?: (address: string) => Promise<string>;
  /** The engines the server analyses with; Koma's own alone without it. */
  engines?: () => Promise<EngineInfo[]>;
}

/** What the page shows: the start page, a game's rules, or the board. */
export type PageKind = 'start' | 'rules' | 'board';

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
  page: PageKind = 'board';
  /** The game whose rules are shown (on the rules page). */
  rulesGame: VariantId = 'spear';
  readonly rules: RulesPages;
  state?: GameState;
  /** When the state arrived (`now()`): the clocks count from then. */
  receivedAt = 0;
  /** The seats this page holds in the game shown. */
  seating?: Seating;
  /** The move whose position is shown; `undefined` follows the game. */
  shownPly?: number;
  orientation: Color = 'sente';
  /** How the page looks and sounds, as kept by the browser. */
  readonly settings: PageSettings;
  message: Message = { kind: 'info' };
  /** Whether the box naming the winner is open. */
  resultShown = false;
  /**
   * Counts the times the board must show the game again although its view
   * did not change: a move the widget made and the server refused or never
   * got must be put back.
   */
  boardResets = 0;
  /**
   * The game the Game menu chose, other than the one shown: the board shows
   * its start position, not the game's, until New game (or the menu's
   * return to the game's own kind, or a move in the game).
   */
  preview?: VariantId;
  /** The review graph's width in pixels, as the page shows it. */
  graphWidth = 600;
  /** The move under the pointer on the review graph, if any. */
  graphHover?: number;
  /** The link whose Copy button reports, and what it says. */
  copied?: { link: string; done: boolean };
  /** Whether premoves are allowed (the Settings switch, kept by the browser). */
  premovesOn: boolean;
  /** The premove (or pre-drop) waiting for the opponent's move. */
  premove?: Premove;
  readonly form: NewGameForm;
  readonly analysis = new AnalysisCtrl();
  readonly mate = new MateCtrl();
  readonly review = new ReviewCtrl();
  readonly learn = new LearnCtrl();
  /** The analysis request Learn from your mistakes sent last (its JSON), so that each is sent once. */
  private learnRequest?: string;
  /** Whether the Analysis switch was on when Learn from your mistakes began: it is put back after. */
  private analysisBeforeLearn = false;
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
    this.settings = new PageSettings({ storage: this.storage, sounds: deps.sounds, applyTheme: deps.applyTheme }, redraw);
    this.premovesOn = this.storage?.getItem(STORAGE_PREMOVES) !== 'off';
    this.form = new NewGameForm(this.storage);
    this.rules = new RulesPages(deps.loadText ?? fetchText, () => this.redraw());
    this.analysis.lines = readLines(this.storage?.getItem(STORAGE_LINES));
    this.analysis.engine = this.storage?.getItem(STORAGE_ENGINE) || BUILT_IN;
    this.analysis.setSecond(this.storage?.getItem(STORAGE_SECOND) || undefined);
    // An old server, or one that cannot be reached now, leaves Koma's own engine alone.
    deps.engines?.().then(
      (engines) => {
        this.analysis.engines = engines;
        this.form.engines = engines;
        this.changed();
      },
      () => undefined,
    );
    this.clock = new ClockCtrl(
      () => this.redraw(),
      () => void this.refresh(),
      this.now,
    );
  }

  /** Shows the page the address names; with none, a new game of the form's. */
  async start(route: PageRoute | undefined): Promise<void> {
    await this.go(route ?? { page: 'play' });
  }

  /**
   * Shows the page the address names: the start page, a game's rules, a
   * new game (of the game named, with the form's other choices), or a game.
   */
  async go(route: PageRoute): Promise<void> {
    switch (route.page) {
      case 'start':
      case 'rules':
        this.page = route.page;
        if (route.page === 'rules') this.rulesGame = route.game;
        this.redraw();
        return;
      case 'play':
        this.page = 'board';
        if (route.game) this.form.variant = route.game;
        await this.newGame();
        return;
      case 'game':
        this.page = 'board';
        this.redraw();
        await this.follow(route.game);
    }
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

  /**
   * The side the person at this screen may premove for: on, in a game
   * that goes on against the computer or a person on another machine
   * (not two people at one screen, who have no opponent's turn to wait
   * through), with the game's own position shown.
   */
  premoveSide(): Color | undefined {
    const state = this.state;
    if (!state || !this.premovesOn || state.outcome) return undefined;
    if (state.mode !== 'shared' && state.opponent.kind !== 'computer') return undefined;
    if (this.reviewing() || this.mate.variation() || this.analysis.variationView(state.variant)) return undefined;
    const sides = this.seats()?.sides ?? [];
    return sides.length === 1 ? sides[0] : undefined;
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
    // A new game, or a move in this one, ends a preview: the board shows the game.
    if (!sameGame || next.ply !== previous?.ply) this.endPreview();
    const seating = Seating.of(next);
    const seatsChanged = seating.sides.join() !== this.seating?.sides.join();
    this.seating = seating;
    // Sounds speak for the one side this page plays; with both sides here
    // (or none: a spectator) the end of the game is neither won nor lost.
    if (!sameGame) this.deps.sounds?.stop();
    this.deps.sounds?.onState(sameGame ? (previous ?? null) : null, next, seating.sides.length === 1 ? seating.sides[0] : null);
    if (!sameGame) {
      if (this.learn.active()) this.learn.exit();
      this.learnRequest = undefined;
      this.shownPly = undefined;
      this.live?.close();
      this.clock.clear();
      this.live = this.deps.connect(next.id, {
        onState: (state) => this.apply(state),
        onAnalysis: (analysis) => {
          if (this.learn.active()) {
            if (!this.learn.receive(analysis)) return;
            // A move judged wrong goes back off the board.
            if (this.learn.status === 'wrong') this.boardResets++;
            this.changed();
          } else if (this.analysis.receive(analysis)) this.changed();
        },
        onError: (message, engine) => {
          if (this.review.refused(message)) this.live?.review(false);
          // A refused request is not sent again on its own (it would be refused again).
          else if (this.learn.active() && this.learn.refused(message)) this.boardResets++;
          else if (!this.analysis.refused(message, engine)) return;
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
    const premove = this.premoveToPlay(next, sameGame);
    this.changed();
    if (premove) this.playMove(premove);
    // The rematch was made (the other player accepted this page's offer):
    // this page asks for its own seat in it and moves there.
    // Seen happen, not on opening an old game whose rematch was played.
    const made = next.rematch?.game && sameGame && !previous?.rematch?.game;
    if (made && next.outcome && !seating.watching) void this.joinRematch(next.id);
  }

  /**
   * What becomes of the premove with a new state: kept while the other
   * side is to move; once the person's side is to move after a later move,
   * the move to play if the server lists it as legal (else dropped, as
   * lishogi drops it, saying nothing); dropped with another game, a
   * takeback, the game's end or when premoves are no longer allowed.
   */
  private premoveToPlay(next: GameState, sameGame: boolean): string | undefined {
    const premove = this.premove;
    if (!premove) return undefined;
    const side = this.premoveSide();
    if (sameGame && side && next.ply >= premove.ply && next.turn !== side) return undefined;
    this.premove = undefined;
    if (!sameGame || !side || next.ply <= premove.ply) return undefined;
    return next.legalMoves.includes(premove.usi) ? premove.usi : undefined;
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
      const second = this.analysis.syncSecond(state, shown);
      if (second !== undefined) this.live?.analyseSecond?.(second ?? undefined);
      this.syncLearn();
      this.review.sync(state);
      this.clock.sync(state, this.receivedAt);
    }
    this.redraw();
  }

  /** Sends Learn from your mistakes' analysis request when it changed (a stop when it needs none). */
  private syncLearn(): void {
    if (!this.learn.active()) return;
    const request = this.learn.request();
    const json = JSON.stringify(request);
    if (json === this.learnRequest) return;
    this.learnRequest = json;
    this.live?.analyse(request ?? undefined);
  }

  /** Shows a message in the status. */
  say(message: Message): void {
    this.message = message;
    this.redraw();
  }

  // ---- what the player does ----

  /** A move made on the board (USI/UCI). */
  playMove(usi: string): void {
    if (this.learn.active()) {
      this.learnMove(usi);
      return;
    }
    void this.change((state, seating) => this.deps.server.playMove(state.id, usi, state.ply, seating.tokenFor(state.turn)), true);
  }

  /**
   * A premove made on the board (USI/UCI), or none (`undefined`: the
   * player cancelled it, or the widget let it go). Kept only where
   * premoves are allowed; else the board drops it.
   */
  setPremove(usi: string | undefined): void {
    const state = this.state;
    if (usi === this.premove?.usi) return;
    if (usi === undefined || !state || !this.premoveSide()) {
      if (usi !== undefined) this.boardResets++;
      this.premove = undefined;
    } else this.premove = { usi, ply: state.ply };
    this.redraw();
  }

  /** Switches premoves on or off (remembered by the browser); off drops the one waiting. */
  setPremovesOn(on: boolean): void {
    this.premovesOn = on;
    this.storage?.setItem(STORAGE_PREMOVES, on ? 'on' : 'off');
    if (!on) this.premove = undefined;
    this.changed();
  }

  /** Shows the position after move `ply` (clamped; the last follows the game). */
  goTo(ply: number): void {
    const state = this.state;
    if (!state) return;
    this.endPreview();
    const target = Math.max(0, Math.min(ply, state.ply));
    this.shownPly = target >= state.ply ? undefined : target;
    // A premove belongs to the game's position: looking back drops it.
    if (this.shownPly !== undefined) this.premove = undefined;
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
    this.premove = undefined;
    void this.change((state, seating) => {
      const seat = state.mode === 'shared' ? seating.takebackSeat(state) : state.turn;
      return this.deps.server.undo(state.id, state.ply, seating.tokenFor(...(seat ? [seat] : [])));
    });
  }

  /** Accepts (or declines) the other player's request to take back. */
  answerTakeback(decline: boolean): void {
    this.shownPly = undefined;
    this.premove = undefined;
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

  /**
   * The Game menu chose `variant`: the board shows its start position at
   * once, and New game (highlighted) starts it with the opponent and clock
   * chosen after it. Like every choice of the form it takes effect with New
   * game: a game started by the menu itself would start before the opponent
   * and clock are chosen, and a slip of the menu would end a game under way.
   * The menu back on the game's own kind shows the game again.
   */
  chooseVariant(variant: VariantId): void {
    this.form.variant = variant;
    if (!this.state || this.state.variant === variant) this.endPreview();
    else {
      this.preview = variant;
      this.shownPly = undefined;
    }
    this.changed();
  }

  /** Back to showing the game, the Game menu on its kind. */
  private endPreview(): void {
    if (!this.preview) return;
    this.preview = undefined;
    if (this.state) this.form.variant = this.state.variant;
  }

  /** The form changed: drawn again (the options it shows follow it). */
  formChanged(): void {
    this.redraw();
  }

  /** The action of a key pressed on the page, if it has one. */
  keyAction(key: string): (() => void) | undefined {
    if (this.page !== 'board') return undefined;
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
    // Learn from your mistakes holds the connection's one analysis: the switch waits for its end.
    if (this.learn.active()) return;
    this.analysis.setOn(on);
    this.changed();
  }

  /** The number of the engine's lines (MultiPV, 1 to 5), kept by the browser: the analysis starts again with it. */
  setAnalysisLines(lines: number): void {
    this.analysis.setLines(lines);
    this.storage?.setItem(STORAGE_LINES, String(this.analysis.lines));
    this.analysis.openLines.clear();
    this.changed();
  }

  /** The engine that analyses (its name), kept by the browser: the analysis starts again with it. */
  setAnalysisEngine(name: string): void {
    this.analysis.setEngine(name);
    this.storage?.setItem(STORAGE_ENGINE, name);
    this.storage?.setItem(STORAGE_SECOND, this.analysis.second ?? '');
    this.changed();
  }

  /** The engine that analyses beside the first (`''`: none), kept by the browser. */
  setAnalysisSecond(name: string): void {
    this.analysis.setSecond(name || undefined);
    this.storage?.setItem(STORAGE_SECOND, this.analysis.second ?? '');
    this.changed();
  }

  /** The page was hidden or shown again: the analysis pauses meanwhile. */
  setPageHidden(hidden: boolean): void {
    this.analysis.hidden = hidden;
    this.changed();
  }

  /** Steps into an analysis line up to its move `step`. */
  /** Shows an analysis line whole, or on one row again. */
  /** The pointer rests on analysis line `index` (`undefined`: it left): the arrow shows that line's first move. */
  hoverAnalysisLine(index: number | undefined): void {
    if (index === this.analysis.hovered) return;
    this.analysis.hovered = index;
    this.redraw();
  }

  toggleAnalysisLine(index: number): void {
    this.analysis.toggleLine(index);
    this.redraw();
  }

  analysisStep(line: number, step: number, source: 'main' | 'second' = 'main'): void {
    const shown = source === 'main' ? this.analysis.analysis : this.analysis.secondAnalysis;
    const moves = shown?.lines[line]?.moves;
    if (!moves) return;
    this.premove = undefined;
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
    // The engine chosen for analysis searches too; Koma's own is the server's default.
    const engine = this.analysis.engineFor(state.variant);
    void this.mate.find(state, this.shown(), this.deps.server.findMate, () => this.changed(), engine === BUILT_IN ? undefined : engine);
  }

  /** Shows step `index` of the mate line (`undefined`: back to the game). */
  mateStep(index: number | undefined): void {
    if (index !== undefined) this.premove = undefined;
    this.mate.show(index);
    this.changed();
  }

  // ---- Learn from your mistakes ----

  /** Starts Learn from your mistakes for `side` in the reviewed game shown. */
  startLearning(side: Color): void {
    const state = this.state;
    if (!state || !this.learn.start(state, side)) return;
    this.analysisBeforeLearn = this.analysis.on;
    this.analysis.setOn(false);
    this.mate.show(undefined);
    this.learnRequest = undefined;
    this.learnMoved();
  }

  /** The person played `usi` on the board while learning. */
  private learnMove(usi: string): void {
    // A move while none is wanted (one is being judged) goes back.
    if (!this.learn.movable()) {
      this.boardResets++;
      this.changed();
      return;
    }
    this.learn.play(usi);
    // A wrong move goes back off the board.
    if (this.learn.status === 'wrong') this.boardResets++;
    this.learnMoved();
  }

  /** Shows the answer, skips, or goes on (`next`); the board follows. */
  learnAction(action: 'answer' | 'skip' | 'next' | 'retry'): void {
    if (action === 'answer') this.learn.showAnswer();
    else if (action === 'skip') this.learn.skip();
    else if (action === 'next') this.learn.next();
    else if (this.state) this.learn.start(this.state, this.learn.side!);
    this.boardResets++;
    this.learnMoved();
  }

  /** Leaves Learn from your mistakes: back to the review, the Analysis switch as it was. */
  stopLearning(): void {
    if (!this.learn.active()) return;
    this.learn.exit();
    this.learnRequest = undefined;
    this.live?.analyse(undefined);
    this.analysis.setOn(this.analysisBeforeLearn);
    this.boardResets++;
    this.changed();
  }

  /** The move list follows the position learnt from. */
  private learnMoved(): void {
    const ply = this.learn.beforePly();
    if (ply !== undefined && this.state) this.shownPly = ply >= this.state.ply ? undefined : ply;
    this.changed();
  }

  askReview(): void {
    if (!this.review.ask()) return;
    // By the engine chosen in the Analysis panel.
    const engine = this.state ? this.analysis.engineFor(this.state.variant) : undefined;
    this.live?.review(true, engine);
    this.changed();
  }

  /** The review graph's box is `width` pixels wide: it is drawn again at that width. */
  setGraphWidth(width: number): void {
    const rounded = Math.round(width);
    if (rounded <= 0 || rounded === this.graphWidth) return;
    this.graphWidth = rounded;
    this.redraw();
  }

  /** The side chosen for Learn from your mistakes, when the person chose one. */
  learnChoice?: Color;

  chooseLearnSide(side: Color): void {
    this.learnChoice = side;
    this.redraw();
  }

  /** The pointer rests on move `ply` of the review graph (`undefined`: it left). */
  hoverGraph(ply: number | undefined): void {
    if (ply === this.graphHover) return;
    this.graphHover = ply;
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
