// Pawns-Only Chess on lichess's chessground.

import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Color as CgColor, Key, Dests } from 'chessground/types';
import type { Color } from './api';
import { forgetBoundsOnPress, parseMove, type Arrow, type Board, type BoardView, type OnMove } from './board';

const asCg = (color: Color): CgColor => (color === 'white' || color === 'sente' ? 'white' : 'black');

export class ChessBoard implements Board {
  private readonly ground: Api;
  private readonly unbind: () => void;

  constructor(element: HTMLElement, orientation: Color, onMove: OnMove) {
    this.ground = Chessground(element, {
      orientation: asCg(orientation),
      coordinates: true,
      animation: { enabled: true, duration: 180 },
      highlight: { lastMove: true, check: true },
      movable: {
        free: false,
        color: undefined,
        showDests: true,
        events: { after: (orig, dest) => onMove(`${orig}${dest}`) },
      },
      premovable: { enabled: false },
      predroppable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      selectable: { enabled: true },
      drawable: { enabled: true, visible: true },
    });
    this.unbind = forgetBoundsOnPress(() => this.ground.state.dom.bounds.clear());
  }

  show(view: BoardView): void {
    const [board, turnLetter] = view.position.split(' ');
    const turn: CgColor = turnLetter === 'b' ? 'black' : 'white';
    const dests: Dests = new Map();
    for (const text of view.legalMoves) {
      const move = parseMove(text);
      if (move?.kind !== 'move') continue;
      const list = dests.get(move.from as Key) ?? [];
      list.push(move.to as Key);
      dests.set(move.from as Key, list);
    }
    const last = view.lastMove ? parseMove(view.lastMove) : undefined;
    const color: CgColor | undefined =
      view.movable === 'none' || view.legalMoves.length === 0
        ? undefined
        : view.movable === 'both' || asCg(view.movable) === turn
          ? turn
          : undefined;
    this.ground.cancelMove();
    this.ground.set({
      fen: board,
      turnColor: turn,
      check: view.check,
      lastMove: last?.kind === 'move' ? [last.from as Key, last.to as Key] : undefined,
      movable: { color, dests },
    });
  }

  showArrows(arrows: Arrow[]): void {
    this.ground.setAutoShapes(
      arrows.flatMap((arrow) => {
        const move = parseMove(arrow.usi);
        return move?.kind === 'move' ? [{ orig: move.from as Key, dest: move.to as Key, brush: arrow.kind === 'best' ? 'paleBlue' : 'paleGreen' }] : [];
      }),
    );
  }

  setOrientation(color: Color): void {
    if (this.ground.state.orientation !== asCg(color)) this.ground.toggleOrientation();
  }

  destroy(): void {
    this.unbind();
    this.ground.destroy();
  }
}
