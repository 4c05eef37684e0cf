// The page: it asks the server for the game, shows it, and sends what the
// player does. It never decides what is legal: the server's answer is shown.
// Changes carry the seat token of the side acting (seats.ts); a page that
// holds no seat of a game only watches it.

import { AnalysisPanel } from './analysis';
import * as api from './api';
import { ApiError, Live, type Color, type GameState } from './api';
import type { Board, BoardView } from './board';
import { ChessBoard } from './chess-board';
import { Clocks } from './clock';
import { impasseNote, renderDeclare } from './declare';
import { renderInvite } from './invite';
import { renderLegend, usePieces } from './legend';
import { MatePanel } from './mate';
import { renderMoveList, renderMoveNotes, type SpearNotation } from './movelist';
import { ReviewPanel } from './review';
import { NewGameForm } from './newgame';
import { fillSaveFormats, openFile, openText, save } from './records';
import { putGameIdInUrl, routeFromUrl, type Route } from './route';
import { forgetSeats, keepNewGame, keepSeats, Seating } from './seats';
import { ShogiBoard } from './shogi-board';
import { colorsOf, opposite, sideName, sideOf } from './sides';
import { renderTakeback, takebackNews } from './takeback';
import { VARIANTS, inPlayersWords, type PieceSet, type VariantId, type VariantInfo } from './variants';

const byId = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page lacks #${id}.`);
  return element as T;
};

const STORAGE_PIECES = 'koma.pieces';
const STORAGE_SPEAR_NOTATION = 'koma.spearNotation';

export class App {
  private state?: GameState;
  /** When the state arrived (`performance.now()`): the clocks count from then. */
  private receivedAt = 0;
  /** The seats this page holds in the game shown. */
  private seating?: Seating;
  /** The move whose position is shown; `undefined` follows the game. */
  private shownPly?: number;
  private orientation: Color = 'sente';
  private board?: Board;
  /** The view the board shows: shown again only when it changes, so that a state that changes nothing on the board (the same one again, a takeback asked) keeps a piece the player has picked up. */
  private boardView?: string;
  private boardVariant?: VariantId;
  private live?: Live;
  /** The change on its way to the server, if any. */
  private pending?: Promise<void>;
  private pieceSet: PieceSet;

  private readonly status = byId<HTMLDivElement>('status');
  private readonly boardArea = byId<HTMLDivElement>('board-area');
  private readonly moveList = byId<HTMLOListElement>('move-list');
  private readonly form = new NewGameForm(() => void this.newGame());
  private readonly clocks = new Clocks(byId('board-area'), byId('clock-top'), byId('clock-bottom'), () => void this.refresh());
  private readonly saveFormat = byId<HTMLSelectElement>('save-format');
  private readonly pieceSetSelect = byId<HTMLSelectElement>('piece-set');
  private readonly legend = byId<HTMLUListElement>('legend');
  private readonly result = byId<HTMLDivElement>('result');
  private readonly mate = new MatePanel(byId('mate-panel'), () => this.render());
  private readonly analysis = new AnalysisPanel(
    byId('analysis-panel'),
    byId('eval-bar'),
    () => this.render(),
    (request) => this.live?.analyse(request),
  );
  private readonly review = new ReviewPanel(
    byId('review-panel'),
    (ply) => this.goTo(ply),
    () => this.render(),
    (start) => this.live?.review(start),
  );
  private readonly moveNotes = byId<HTMLDivElement>('move-notes');
  private messageText = '';
  private messageKind: 'info' | 'error' = 'info';
  private readonly notationSelect = byId<HTMLSelectElement>('notation');
  private spearNotation: SpearNotation = 'seed';

  constructor() {
    const storedSet = localStorage.getItem(STORAGE_PIECES);
    this.pieceSet = storedSet === 'letters' ? 'letters' : 'kanji';
    this.pieceSetSelect.value = this.pieceSet;
    this.spearNotation = localStorage.getItem(STORAGE_SPEAR_NOTATION) === 'japanese' ? 'japanese' : 'seed';
    this.notationSelect.value = this.spearNotation;
    this.bindControls();
  }

  async start(): Promise<void> {
    window.addEventListener('hashchange', () => void this.follow(routeFromUrl()));
    const route = routeFromUrl();
    if (route) await this.follow(route);
    else await this.newGame();
  }

  /** Shows the game the address names; a seat link also hands this page a seat. */
  private async follow(route: Route | undefined): Promise<void> {
    if (!route) return;
    // The token leaves the address bar at once (it is kept in localStorage).
    if (route.seat) putGameIdInUrl(route.id);
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

  // ---- talking to the server ----

  private async openGame(id: string, seat?: { side: string; token: string }): Promise<void> {
    try {
      const state = await api.getGame(id);
      if (seat) this.takeSeat(state, seat);
      this.apply(state);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.say(`${error.message} A new game was started instead.`, 'error');
      await this.newGame(true);
    }
  }

  /** Asks the server for the game as it is (the clock shows zero: the server decides). */
  private async refresh(): Promise<void> {
    const id = this.state?.id;
    if (!id) return;
    try {
      const state = await api.getGame(id);
      if (state.id === this.state?.id) this.apply(state);
    } catch {
      // The WebSocket brings the state too; the clocks will ask again.
    }
  }

  private async newGame(keepMessage = false): Promise<void> {
    const choice = this.form.read();
    try {
      const state = await api.newGame(choice.variant, choice.options);
      keepNewGame(state, choice.mine);
      if (!keepMessage) this.say('');
      this.apply(state);
      if (state.mode === 'shared')
        this.say('Send the other player their seat link, under "Links to this game".');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.say(error.message, 'error');
      // The current game stays; with none yet, a game between people starts.
      if (!this.state && (choice.options.opponent.kind !== 'human' || choice.options.mode === 'shared')) {
        this.form.chooseLocal();
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
  private async change(request: (state: GameState) => Promise<GameState>, wait = false): Promise<void> {
    if (this.pending && wait) await this.pending;
    if (this.pending || !this.state) {
      // Dropped: the board must not keep a move that was not sent.
      this.boardView = undefined;
      this.render();
      return;
    }
    const state = this.state;
    const sending = (async () => {
      try {
        const next = await request(state);
        this.say('');
        this.apply(next);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // A seat link with a token the game does not know: this page only watches.
        if (error.code === 'bad-token') {
          forgetSeats(state.id);
          this.seating = undefined;
        }
        this.say(error.message, 'error');
        // The widget moved the piece: put it back where the server has it.
        this.boardView = undefined;
        if (error.state) this.apply(error.state);
        else this.render();
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
  private apply(next: GameState): void {
    const previous = this.state;
    const sameGame = previous?.id === next.id;
    if (sameGame && previous && next.version < previous.version) {
      this.render();
      return;
    }
    this.state = next;
    this.receivedAt = performance.now();
    const seating = Seating.of(next);
    const seatsChanged = seating.sides.join() !== this.seating?.sides.join();
    this.seating = seating;
    if (!sameGame) {
      this.shownPly = undefined;
      this.live?.close();
      this.clocks.clear();
      this.live = new Live(
        next.id,
        (state) => this.apply(state),
        (analysis) => this.analysis.receive(analysis),
        (message) => {
          if (!this.review.refused(message)) this.analysis.refused(message);
        },
      );
      this.live.onClosed = (why) => this.say(why, 'error');
      this.live.onReview = (progress) => this.review.receive(progress);
      putGameIdInUrl(next.id);
      this.form.showVariant(next.variant);
      this.result.hidden = true;
    } else if (this.shownPly !== undefined && this.shownPly > next.ply) {
      this.shownPly = undefined;
    }
    if (!sameGame || seatsChanged) this.orientation = this.bottomSide(next, seating);
    const news = sameGame && previous ? takebackNews(previous, next, seating) : undefined;
    if (news) this.say(news);
    this.render();
    if (sameGame && previous && !previous.outcome && next.outcome) this.showResult(next);
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

  // ---- drawing ----

  private variantInfo(): VariantInfo | undefined {
    return this.state ? VARIANTS[this.state.variant] : undefined;
  }

  private ensureBoard(variant: VariantInfo): Board {
    if (this.board && this.boardVariant === variant.id) return this.board;
    this.board?.destroy();
    // Fresh elements: each widget leaves its own classes on its elements.
    const fresh = (id: string, className: string): HTMLDivElement => {
      const old = byId<HTMLDivElement>(id);
      const element = document.createElement('div');
      element.id = id;
      element.className = className;
      old.replaceWith(element);
      return element;
    };
    const boardElement = fresh('board', 'board');
    const handTop = fresh('hand-top', 'hand hand-top');
    const handBottom = fresh('hand-bottom', 'hand hand-bottom');
    this.boardArea.dataset.variant = variant.id;
    this.boardArea.dataset.widget = variant.widget;
    this.boardArea.style.setProperty('--files', String(variant.files));
    this.boardArea.style.setProperty('--ranks', String(variant.ranks));
    usePieces(variant, this.pieceSet);
    renderLegend(this.legend, variant, this.pieceSet);
    fillSaveFormats(this.saveFormat, variant.id);
    const onMove = (usi: string): void =>
      void this.change((state) => api.playMove(state.id, usi, state.ply, this.seating?.tokenFor(state.turn)), true);
    this.board =
      variant.widget === 'chessground'
        ? new ChessBoard(boardElement, this.orientation, onMove)
        : new ShogiBoard(variant, { board: boardElement, handTop, handBottom }, this.orientation, onMove);
    this.boardVariant = variant.id;
    this.boardView = undefined;
    document.title = `Koma · ${variant.title}`;
    return this.board;
  }

  private render(): void {
    const state = this.state;
    const variant = this.variantInfo();
    if (!state || !variant) return;
    const seating = this.seating ?? Seating.of(state);
    const board = this.ensureBoard(variant);
    board.setOrientation(this.orientation);
    const shown = this.shownPly ?? state.ply;
    const reviewing = shown < state.ply;
    let view: BoardView;
    if (reviewing) {
      view = {
        position: shown === 0 ? state.start : state.moves[shown - 1].position,
        lastMove: shown === 0 ? null : state.moves[shown - 1].usi,
        check: false,
        turn: this.turnAt(state, shown),
        legalMoves: [],
        movable: 'none',
      };
    } else {
      const sides = seating.sides;
      view = {
        position: state.position,
        lastMove: state.lastMove,
        check: state.check,
        turn: state.turn,
        legalMoves: state.outcome ? [] : state.legalMoves,
        movable: sides.length === 0 ? 'none' : sides.length === 1 ? sides[0] : 'both',
      };
    }
    this.mate.render(state, shown, () => void this.mate.find(state, shown));
    this.analysis.render(state, shown, this.orientation);
    const variation = this.mate.variation() ?? this.analysis.variationView(state.variant);
    if (variation) view = variation;
    const viewKey = JSON.stringify(view);
    if (viewKey !== this.boardView) {
      board.show(view);
      this.boardView = viewKey;
    }
    board.showBestMove(this.mate.variation() ? undefined : this.analysis.bestMove());
    this.renderHandLabels(state.variant);
    this.renderStatus(state, shown, reviewing);
    byId('notation-options').hidden = state.variant !== 'spear';
    renderMoveList(this.moveList, state, shown, (ply) => this.goTo(ply), this.spearNotation);
    renderMoveNotes(this.moveNotes, state, shown);
    this.review.render(state, shown);
    byId<HTMLButtonElement>('first').disabled = shown === 0;
    byId<HTMLButtonElement>('previous').disabled = shown === 0;
    byId<HTMLButtonElement>('next').disabled = !reviewing;
    byId<HTMLButtonElement>('last').disabled = !reviewing;
    this.renderActions(state);
    renderDeclare(byId<HTMLButtonElement>('declare'), state, seating);
    renderTakeback(byId('takeback'), state, seating, {
      accept: () => this.answerTakeback(false),
      decline: () => this.answerTakeback(true),
    });
    renderInvite(byId('invite'), byId('invite-links'), state, seating);
    this.clocks.show(state, this.receivedAt, this.orientation);
    const body = document.body.dataset;
    body.gameId = state.id;
    body.variant = state.variant;
    body.ply = String(state.ply);
    body.version = String(state.version);
    body.shownPly = String(shown);
    body.mateStep = this.mate.shownStep();
    body.turn = state.turn;
    body.outcome = state.outcome ? state.outcome.reason : '';
    body.computer = state.opponent.kind === 'computer' ? state.opponent.color : '';
    body.orientation = this.orientation;
    body.mode = state.mode;
    body.seats = seating.sides.join(' ');
    body.takeback = state.takeback ?? '';
    body.clock = state.clock ? (state.clock.running ?? 'standing') : '';
  }

  /** Undo and Resign, as this page may use them. */
  private renderActions(state: GameState): void {
    const seating = this.seating ?? Seating.of(state);
    const undo = byId<HTMLButtonElement>('undo');
    const resign = byId<HTMLButtonElement>('resign');
    undo.hidden = resign.hidden = seating.watching;
    resign.disabled = !!state.outcome;
    if (state.mode === 'shared') {
      const seat = seating.takebackSeat(state);
      const hasMove = !!seat && state.moves.some((move) => move.color === seat);
      undo.textContent = 'Ask to take back';
      undo.disabled = !!state.outcome || !!state.takeback || !hasMove;
      undo.title = state.takeback
        ? 'A takeback was asked: see the answer under the board'
        : 'Ask the other player to take back your last move';
      resign.title = 'You resign';
      return;
    }
    // While the computer thinks, its reply is on the way: Undo waits for it
    // (then takes back both moves), so that no reply meets a changed game.
    undo.textContent = 'Undo';
    undo.disabled = (state.ply === 0 && !state.outcome) || this.computerThinking(state);
    undo.title =
      state.opponent.kind === 'computer' ? "Take back your last move and the computer's reply" : 'Take back the last move';
    resign.title = state.opponent.kind === 'computer' ? 'You resign' : 'The player to move resigns';
  }

  /** Accepts (or declines) the other player's request to take back. */
  private answerTakeback(decline: boolean): void {
    this.shownPly = undefined;
    void this.change((state) => {
      const seating = this.seating ?? Seating.of(state);
      return api.undo(state.id, state.ply, seating.tokenFor(seating.takebackSeat(state) ?? state.turn), decline);
    });
  }

  /** Whether the computer is to move: the server plays its move and sends it over the WebSocket. */
  private computerThinking(state: GameState): boolean {
    return state.opponent.kind === 'computer' && state.opponent.color === state.turn && !state.outcome;
  }

  /** The side to move in the start position. */
  private turnAt(state: GameState, ply: number): Color {
    const [first, second] = colorsOf(state.variant);
    const turnLetter = state.start.split(' ')[1];
    const starter = state.variant === 'pawns' ? (turnLetter === 'b' ? second : first) : turnLetter === 'w' ? second : first;
    return ply % 2 === 0 ? starter : opposite(state.variant, starter);
  }

  private renderHandLabels(variant: VariantId): void {
    const top = opposite(variant, this.orientation);
    this.boardArea.dataset.top = top;
    this.boardArea.dataset.bottom = this.orientation;
    for (const [id, color] of [['hand-top', top], ['hand-bottom', this.orientation]] as const) {
      const hand = byId(id);
      hand.dataset.label = sideName(variant, color, this.state?.handicap);
      hand.dataset.color = color;
      hand.title = `${sideName(variant, color, this.state?.handicap)}: pieces in hand`;
    }
  }

  private renderStatus(state: GameState, shown: number, reviewing: boolean): void {
    this.status.textContent = '';
    const line = document.createElement('div');
    line.className = 'status-line';
    if (reviewing) line.textContent = `Move ${shown} of ${state.ply} (reviewing: › or → steps on, » returns to the game). `;
    const main = document.createElement('span');
    const mateStep = this.mate.describeStep() ?? this.analysis.describeVariation();
    if (mateStep) {
      main.className = 'variation';
      main.textContent = mateStep;
    } else if (state.outcome && !reviewing) {
      main.className = 'outcome';
      main.textContent = inPlayersWords(state.variant, state.outcome.message, state.handicap);
    } else if (!reviewing) {
      main.className = 'turn';
      main.textContent = `${sideName(state.variant, state.turn, state.handicap)} to move${state.check ? ' — check!' : ''}`;
      const opponent = state.opponent;
      const seating = this.seating;
      if (opponent.kind === 'computer')
        main.textContent += this.computerThinking(state)
          ? ' (the computer is thinking)'
          : opponent.level === 'perfect'
            ? ': your move against the perfect player'
            : `: your move against the computer (level ${opponent.level})`;
      else if (state.mode === 'shared' && seating && seating.sides.length === 1)
        main.textContent += seating.holds(state.turn) ? ': your move' : ': waiting for your opponent';
    }
    line.appendChild(main);
    this.status.appendChild(line);
    const notes: [string, string | undefined][] = [
      [
        'handicap-note',
        state.handicap && state.variant === 'shogi'
          ? `${state.handicap.title} handicap (${state.handicap.japanese}): Uwate ☖ gives it and moves first; Shitate ☗ receives.`
          : undefined,
      ],
      ['impasse-note', reviewing ? undefined : impasseNote(state)],
      ['seat-note', this.seatNote(state)],
    ];
    for (const [name, text] of notes) {
      if (!text) continue;
      const note = document.createElement('div');
      note.className = note.id = name;
      note.textContent = text;
      this.status.appendChild(note);
    }
    const message = document.createElement('div');
    message.className = `message ${this.messageKind}`;
    message.id = 'message';
    message.textContent = this.messageText;
    this.status.appendChild(message);
  }

  /** Who this page is in the game: a watcher, or the player of one side of a shared game. */
  private seatNote(state: GameState): string | undefined {
    const seating = this.seating;
    if (!seating || seating.watching) return 'You are watching this game: only its players can move.';
    if (state.mode === 'shared' && seating.sides.length === 1) return `You play ${sideName(state.variant, seating.sides[0], state.handicap)}.`;
    return undefined;
  }

  private say(text: string, kind: 'info' | 'error' = 'info'): void {
    this.messageText = text;
    this.messageKind = kind;
    const element = document.getElementById('message');
    if (element) {
      element.textContent = text;
      element.className = `message ${kind}`;
    }
  }

  private showResult(state: GameState): void {
    const outcome = state.outcome;
    if (!outcome) return;
    byId('result-title').textContent = outcome.winner ? `${sideName(state.variant, outcome.winner, state.handicap)} wins!` : 'Draw.';
    byId('result-detail').textContent = inPlayersWords(state.variant, outcome.message, state.handicap);
    this.result.hidden = false;
    byId<HTMLButtonElement>('result-close').focus();
  }

  // ---- controls ----

  private goTo(ply: number): void {
    const state = this.state;
    if (!state) return;
    const target = Math.max(0, Math.min(ply, state.ply));
    this.shownPly = target >= state.ply ? undefined : target;
    this.render();
  }

  private shown(): number {
    return this.shownPly ?? this.state?.ply ?? 0;
  }

  private flip(): void {
    if (!this.state) return;
    this.orientation = opposite(this.state.variant, this.orientation);
    this.render();
  }

  private bindControls(): void {
    byId('first').addEventListener('click', () => this.goTo(0));
    byId('previous').addEventListener('click', () => this.goTo(this.shown() - 1));
    byId('next').addEventListener('click', () => this.goTo(this.shown() + 1));
    byId('last').addEventListener('click', () => this.goTo(Infinity));
    byId('flip').addEventListener('click', () => this.flip());
    byId('undo').addEventListener('click', () => {
      this.shownPly = undefined;
      void this.change((state) => {
        const seating = this.seating ?? Seating.of(state);
        const seat = state.mode === 'shared' ? seating.takebackSeat(state) : state.turn;
        return api.undo(state.id, state.ply, seating.tokenFor(...(seat ? [seat] : [])));
      });
    });
    byId('declare').addEventListener('click', () => {
      this.shownPly = undefined;
      void this.change((state) => api.declare(state.id, state.ply, this.seating?.tokenFor(state.turn)));
    });
    byId('resign').addEventListener('click', () => {
      void this.change((state) => api.resign(state.id, state.ply, this.seating?.tokenFor(state.turn)));
    });
    byId('result-close').addEventListener('click', () => (this.result.hidden = true));
    byId('result-new').addEventListener('click', () => {
      this.result.hidden = true;
      if (this.state) this.form.showVariant(this.state.variant);
      void this.newGame();
    });
    document.addEventListener('keydown', (event) => {
      const target = event.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const actions: Record<string, () => void> = {
        ArrowLeft: () => this.goTo(this.shown() - 1),
        ArrowRight: () => this.goTo(this.shown() + 1),
        ArrowUp: () => this.goTo(0),
        ArrowDown: () => this.goTo(Infinity),
        Home: () => this.goTo(0),
        End: () => this.goTo(Infinity),
        f: () => this.flip(),
        Escape: () => (this.result.hidden = true),
      };
      const action = actions[event.key];
      if (action) {
        event.preventDefault();
        action();
      }
    });

    // Records.
    const fileInput = byId<HTMLInputElement>('record-file');
    const format = byId<HTMLSelectElement>('record-format');
    const recordVariant = byId<HTMLSelectElement>('record-variant');
    const opened = (state: GameState, what: string): void => {
      keepNewGame(state);
      this.apply(state);
      this.shownPly = state.ply > 0 ? 0 : undefined;
      this.render();
      this.say(`Opened ${what}: ${state.ply} move${state.ply === 1 ? '' : 's'}. Step through with › or →.`);
    };
    const failed = (error: unknown): void => {
      if (!(error instanceof ApiError)) throw error;
      this.say(error.message, 'error');
    };
    fileInput.addEventListener('change', () => {
      const file = fileInput.files?.[0];
      if (!file) return;
      openFile(file, format.value, recordVariant.value)
        .then((state) => opened(state, file.name), failed)
        .finally(() => (fileInput.value = ''));
    });
    byId('record-open').addEventListener('click', () => {
      const text = byId<HTMLTextAreaElement>('record-text').value;
      if (!text.trim()) {
        this.say('Paste a record first (KIF, KI2, CSA, SFEN/USI or PGN).', 'error');
        return;
      }
      openText(text, format.value, recordVariant.value, this.form.selectedVariant()).then((state) => opened(state, 'the pasted record'), failed);
    });
    byId('save').addEventListener('click', () => {
      if (!this.state) return;
      save(this.state.id, this.saveFormat.value).then((name) => this.say(`Saved ${name}.`), failed);
    });

    // How Spear's moves are listed.
    this.notationSelect.addEventListener('change', () => {
      this.spearNotation = this.notationSelect.value === 'japanese' ? 'japanese' : 'seed';
      localStorage.setItem(STORAGE_SPEAR_NOTATION, this.spearNotation);
      this.render();
    });

    // Piece images.
    this.pieceSetSelect.addEventListener('change', () => {
      this.pieceSet = this.pieceSetSelect.value === 'letters' ? 'letters' : 'kanji';
      localStorage.setItem(STORAGE_PIECES, this.pieceSet);
      const variant = this.variantInfo();
      if (variant) {
        usePieces(variant, this.pieceSet);
        renderLegend(this.legend, variant, this.pieceSet);
      }
    });
  }
}
