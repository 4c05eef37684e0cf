// The board widget in the page: shogiground for the shogi games (through
// shogi-board.ts), chessground for Pawns-Only Chess (chess-board.ts). The
// view's board area carries this module's hooks: the widget is made when
// the area is inserted, told of each change when the area is patched, and
// destroyed with it. A patch that changes nothing on the board leaves the
// widget alone, so that a piece the player has picked up stays picked up.

import type { Hooks, VNode } from 'snabbdom';
import type { Color } from './api';
import type { Arrow, Board, BoardView, OnPremove } from './board';
import { ChessBoard } from './chess-board';
import { usePieces } from './legend';
import { ShogiBoard } from './shogi-board';
import type { PieceSet, VariantInfo } from './variants';

/** What the board shows, as the view computes it from the state. */
export interface GroundConfig {
  variant: VariantInfo;
  pieceSet: PieceSet;
  orientation: Color;
  view: BoardView;
  /** Bumped when the widget must show the view again although it did not change. */
  resets: number;
  /** The engine's best move and the review's better one, as arrows. */
  arrows: Arrow[];
  /** The premove (or pre-drop) the state keeps, as USI/UCI. */
  premove?: string;
}

/** Whether the widget must be shown `next` after `previous`. */
export function needsShow(previous: GroundConfig | undefined, next: GroundConfig): boolean {
  return !previous || previous.resets !== next.resets || JSON.stringify(previous.view) !== JSON.stringify(next.view);
}

export class Ground {
  private board?: Board;
  private element?: Element;
  private shown?: GroundConfig;
  private piecesKey?: string;

  constructor(
    /** Called with the USI/UCI text of a move the player made on the board. */
    private readonly onMove: (usi: string) => void,
    /** Called when the player set a premove on the board (its text) or it went (undefined). */
    private readonly onPremove: OnPremove = () => {},
  ) {}

  /** The hooks of the board area's vnode, for `config`. */
  hooks(config: GroundConfig): Hooks {
    return {
      insert: (vnode) => this.mount(vnode, config),
      postpatch: (_old, vnode) => {
        if (vnode.elm !== this.element) this.mount(vnode, config);
        else this.update(config);
      },
      destroy: (vnode) => {
        if (vnode.elm === this.element) this.destroy();
      },
    };
  }

  /** Makes the widget on the area's board and hand elements. */
  private mount(area: VNode, config: GroundConfig): void {
    this.destroy();
    const element = area.elm as HTMLElement;
    const find = (id: string): HTMLElement => {
      const found = element.querySelector<HTMLElement>(`#${id}`);
      if (!found) throw new Error(`The board area lacks #${id}.`);
      return found;
    };
    const board = find('board');
    this.board =
      config.variant.widget === 'chessground'
        ? new ChessBoard(board, config.orientation, this.onMove, this.onPremove)
        : new ShogiBoard(
            config.variant,
            { board, handTop: find('hand-top'), handBottom: find('hand-bottom') },
            config.orientation,
            this.onMove,
            this.onPremove,
          );
    this.element = element;
    this.shown = undefined;
    this.update(config);
  }

  private update(config: GroundConfig): void {
    const board = this.board;
    if (!board) return;
    const piecesKey = `${config.variant.id}/${config.pieceSet}`;
    if (piecesKey !== this.piecesKey) {
      usePieces(config.variant, config.pieceSet);
      this.piecesKey = piecesKey;
    }
    board.setOrientation(config.orientation);
    const show = needsShow(this.shown, config);
    if (show) board.show(config.view);
    // Showing a position clears the arrows: they are drawn again after it.
    if (show || JSON.stringify(config.arrows) !== JSON.stringify(this.shown?.arrows)) board.showArrows(config.arrows);
    // Showing a position clears the premove too: the widget draws the one
    // the state keeps again, and follows the state when it drops one.
    if (show || config.premove !== this.shown?.premove) board.showPremove(config.premove);
    this.shown = config;
  }

  private destroy(): void {
    this.board?.destroy();
    this.board = undefined;
    this.element = undefined;
    this.shown = undefined;
  }
}
