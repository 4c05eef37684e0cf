// The page: it asks the server for the game, shows it, and sends what the
// player does. It never decides what is legal: the server's answer is shown.

import * as api from './api';
import { ApiError, Live, type Color, type GameState, type Opponent } from './api';
import type { Board, BoardView } from './board';
import { ChessBoard } from './chess-board';
import { renderLegend, usePieces } from './legend';
import { renderMoveList } from './movelist';
import { fillSaveFormats, openFile, openText, save } from './records';
import { gameIdFromUrl, putGameIdInUrl } from './route';
import { ShogiBoard } from './shogi-board';
import { VARIANTS, inPlayersWords, isVariantId, type PieceSet, type VariantId, type VariantInfo } from './variants';

const byId = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page lacks #${id}.`);
  return element as T;
};

const STORAGE_VARIANT = 'koma.variant';
const STORAGE_PIECES = 'koma.pieces';

function colorsOf(variant: VariantId): [Color, Color] {
  return variant === 'pawns' ? ['white', 'black'] : ['sente', 'gote'];
}

function opposite(variant: VariantId, color: Color): Color {
  const [first, second] = colorsOf(variant);
  return color === first ? second : first;
}

/** A side's name as its game's players say it. */
export function sideName(variant: VariantId, color: Color): string {
  const first = color === 'sente' || color === 'white';
  switch (variant) {
    case 'spear':
      return first ? 'Black ☗' : 'White ☖';
    case 'pawns':
      return first ? 'White' : 'Black';
    default:
      return first ? 'Sente ☗' : 'Gote ☖';
  }
}

export class App {
  private state?: GameState;
  /** The move whose position is shown; `undefined` follows the game. */
  private shownPly?: number;
  private orientation: Color = 'sente';
  private board?: Board;
  private boardVariant?: VariantId;
  private live?: Live;
  private pending = false;
  private pieceSet: PieceSet;

  private readonly status = byId<HTMLDivElement>('status');
  private readonly boardArea = byId<HTMLDivElement>('board-area');
  private readonly moveList = byId<HTMLOListElement>('move-list');
  private readonly variantSelect = byId<HTMLSelectElement>('variant');
  private readonly opponentSelect = byId<HTMLSelectElement>('opponent');
  private readonly saveFormat = byId<HTMLSelectElement>('save-format');
  private readonly pieceSetSelect = byId<HTMLSelectElement>('piece-set');
  private readonly legend = byId<HTMLUListElement>('legend');
  private readonly result = byId<HTMLDivElement>('result');
  private messageText = '';
  private messageKind: 'info' | 'error' = 'info';

  constructor() {
    const storedSet = localStorage.getItem(STORAGE_PIECES);
    this.pieceSet = storedSet === 'letters' ? 'letters' : 'kanji';
    this.pieceSetSelect.value = this.pieceSet;
    const storedVariant = localStorage.getItem(STORAGE_VARIANT) ?? '';
    if (isVariantId(storedVariant)) this.variantSelect.value = storedVariant;
    this.bindControls();
  }

  async start(): Promise<void> {
    window.addEventListener('hashchange', () => {
      const id = gameIdFromUrl();
      if (id && id !== this.state?.id) void this.openGame(id);
    });
    const id = gameIdFromUrl();
    if (id) await this.openGame(id);
    else await this.newGame();
  }

  // ---- talking to the server ----

  private async openGame(id: string): Promise<void> {
    try {
      this.apply(await api.getGame(id));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.say(`${error.message} A new game was started instead.`, 'error');
      await this.newGame(true);
    }
  }

  private async newGame(keepMessage = false): Promise<void> {
    const variant = this.selectedVariant();
    let opponent: Opponent = { kind: 'human' };
    if (this.opponentSelect.value === 'computer') {
      const [first, second] = colorsOf(variant);
      const level = Math.min(20, Math.max(1, Number(byId<HTMLInputElement>('level').value) || 1));
      opponent = { kind: 'computer', level, color: byId<HTMLSelectElement>('computer-color').value === 'first' ? first : second };
    }
    localStorage.setItem(STORAGE_VARIANT, variant);
    try {
      const state = await api.newGame(variant, opponent);
      if (!keepMessage) this.say('');
      this.apply(state);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.say(error.message, 'error');
      // The current game stays; with none yet, a game between people starts.
      if (!this.state && opponent.kind !== 'human') {
        this.opponentSelect.value = 'human';
        this.showComputerOptions();
        await this.newGame(true);
      }
    }
  }

  /** Sends a change; a refusal shows the server's sentence and its state. */
  private async change(request: (state: GameState) => Promise<GameState>, done?: (state: GameState) => void): Promise<void> {
    const state = this.state;
    if (!state || this.pending) return;
    this.pending = true;
    try {
      const next = await request(state);
      this.say('');
      this.apply(next);
      done?.(next);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.say(error.message, 'error');
      if (error.state) this.apply(error.state);
      else this.render();
    } finally {
      this.pending = false;
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
    if (!sameGame) {
      this.shownPly = undefined;
      this.live?.close();
      this.live = new Live(next.id, (state) => this.apply(state));
      putGameIdInUrl(next.id);
      this.variantSelect.value = next.variant;
      const [first, second] = colorsOf(next.variant);
      this.orientation = next.opponent.kind === 'computer' && next.opponent.color === first ? second : first;
      this.result.hidden = true;
    } else if (this.shownPly !== undefined && this.shownPly > next.ply) {
      this.shownPly = undefined;
    }
    this.render();
    if (sameGame && previous && !previous.outcome && next.outcome) this.showResult(next);
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
    const onMove = (usi: string) => void this.change((state) => api.playMove(state.id, usi, state.ply));
    this.board =
      variant.widget === 'chessground'
        ? new ChessBoard(boardElement, this.orientation, onMove)
        : new ShogiBoard(variant, { board: boardElement, handTop, handBottom }, this.orientation, onMove);
    this.boardVariant = variant.id;
    document.title = `Koma · ${variant.title}`;
    return this.board;
  }

  private render(): void {
    const state = this.state;
    const variant = this.variantInfo();
    if (!state || !variant) return;
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
      const opponent = state.opponent;
      view = {
        position: state.position,
        lastMove: state.lastMove,
        check: state.check,
        turn: state.turn,
        legalMoves: state.outcome ? [] : state.legalMoves,
        movable: opponent.kind === 'computer' ? opposite(state.variant, opponent.color) : 'both',
      };
    }
    board.show(view);
    this.renderHandLabels(state.variant);
    this.renderStatus(state, shown, reviewing);
    renderMoveList(this.moveList, state, shown, (ply) => this.goTo(ply));
    byId<HTMLButtonElement>('first').disabled = shown === 0;
    byId<HTMLButtonElement>('previous').disabled = shown === 0;
    byId<HTMLButtonElement>('next').disabled = !reviewing;
    byId<HTMLButtonElement>('last').disabled = !reviewing;
    // While the computer thinks, its reply is on the way: Undo waits for it
    // (then takes back both moves), so that no reply meets a changed game.
    const undo = byId<HTMLButtonElement>('undo');
    undo.disabled = (state.ply === 0 && !state.outcome) || this.computerThinking(state);
    undo.title =
      state.opponent.kind === 'computer' ? "Take back your last move and the computer's reply" : 'Take back the last move';
    const resign = byId<HTMLButtonElement>('resign');
    resign.disabled = !!state.outcome;
    resign.title = state.opponent.kind === 'computer' ? 'You resign' : 'The player to move resigns';
    const body = document.body.dataset;
    body.gameId = state.id;
    body.variant = state.variant;
    body.ply = String(state.ply);
    body.version = String(state.version);
    body.shownPly = String(shown);
    body.turn = state.turn;
    body.outcome = state.outcome ? state.outcome.reason : '';
    body.computer = state.opponent.kind === 'computer' ? state.opponent.color : '';
    body.orientation = this.orientation;
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
      hand.dataset.label = sideName(variant, color);
      hand.dataset.color = color;
      hand.title = `${sideName(variant, color)}: pieces in hand`;
    }
  }

  private renderStatus(state: GameState, shown: number, reviewing: boolean): void {
    this.status.textContent = '';
    const line = document.createElement('div');
    line.className = 'status-line';
    if (reviewing) line.textContent = `Move ${shown} of ${state.ply} (reviewing: › or → steps on, » returns to the game). `;
    const main = document.createElement('span');
    if (state.outcome && !reviewing) {
      main.className = 'outcome';
      main.textContent = inPlayersWords(state.variant, state.outcome.message);
    } else if (!reviewing) {
      main.className = 'turn';
      main.textContent = `${sideName(state.variant, state.turn)} to move${state.check ? ' — check!' : ''}`;
      const opponent = state.opponent;
      if (opponent.kind === 'computer')
        main.textContent += this.computerThinking(state)
          ? ' (the computer is thinking)'
          : `: your move against the computer (level ${opponent.level})`;
    }
    line.appendChild(main);
    this.status.appendChild(line);
    const message = document.createElement('div');
    message.className = `message ${this.messageKind}`;
    message.id = 'message';
    message.textContent = this.messageText;
    this.status.appendChild(message);
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
    byId('result-title').textContent = outcome.winner ? `${sideName(state.variant, outcome.winner)} wins!` : 'Draw.';
    byId('result-detail').textContent = inPlayersWords(state.variant, outcome.message);
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

  private selectedVariant(): VariantId {
    const value = this.variantSelect.value;
    return isVariantId(value) ? value : 'spear';
  }

  private showComputerOptions(): void {
    byId('computer-options').hidden = this.opponentSelect.value !== 'computer';
  }

  private bindControls(): void {
    byId<HTMLFormElement>('new-game').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.newGame();
    });
    this.opponentSelect.addEventListener('change', () => this.showComputerOptions());
    this.showComputerOptions();
    byId('first').addEventListener('click', () => this.goTo(0));
    byId('previous').addEventListener('click', () => this.goTo(this.shown() - 1));
    byId('next').addEventListener('click', () => this.goTo(this.shown() + 1));
    byId('last').addEventListener('click', () => this.goTo(Infinity));
    byId('flip').addEventListener('click', () => this.flip());
    byId('undo').addEventListener('click', () => {
      this.shownPly = undefined;
      void this.change((state) => api.undo(state.id, state.ply));
    });
    byId('resign').addEventListener('click', () => {
      void this.change((state) => {
        const opponent = state.opponent;
        const color = opponent.kind === 'computer' ? opposite(state.variant, opponent.color) : state.turn;
        return api.resign(state.id, state.ply, color);
      });
    });
    byId('result-close').addEventListener('click', () => (this.result.hidden = true));
    byId('result-new').addEventListener('click', () => {
      this.result.hidden = true;
      if (this.state) this.variantSelect.value = this.state.variant;
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
      openText(text, format.value, recordVariant.value, this.selectedVariant()).then((state) => opened(state, 'the pasted record'), failed);
    });
    byId('save').addEventListener('click', () => {
      if (!this.state) return;
      save(this.state.id, this.saveFormat.value).then((name) => this.say(`Saved ${name}.`), failed);
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
