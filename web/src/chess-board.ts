// Pawns-Only Chess on lichess's chessground.

import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Color as CgColor, Key, Dests } from 'chessground/types';
import type { Color } from './api';
import { boardActor, forgetBoundsOnPress, parseMove, type Arrow, type Board, type BoardView, type OnMove, type OnPremove } from './board';

const asCg = (color: Color): CgColor => (color === 'white' || color === 'sente' ? 'white' : 'black');

export class ChessBoard implements Board {
  private readonly ground: Api;
  private readonly unbind: () => void;

  constructor(element: HTMLElement, orientation: Color, onMove: OnMove, onPremove: OnPremove) {
    // Chessground tells of a premove set or gone a moment later: what it
    // reports is the premove it holds by then.
    const report = () => onPremove(this.currentPremove());
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
      // A pawn's premoves are chessground's own: a step or two forward, a capture either side.
      premovable: { enabled: false, showDests: true, castle: false, events: { set: report, unset: report } },
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
    // The player's side may move on its turn, and premove while the other
    // side is to move when the page allows it.
    const actor = boardActor(view);
    const color: CgColor | undefined = actor === 'move' ? turn : actor === 'premove' ? asCg(view.movable as Color) : undefined;
    const premovable = actor === 'premove';
    this.ground.cancelMove();
    this.ground.set({
      fen: board,
      turnColor: turn,
      check: view.check,
      lastMove: last?.kind === 'move' ? [last.from as Key, last.to as Key] : undefined,
      movable: { color, dests: actor === 'move' ? dests : new Map() },
      premovable: { enabled: premovable },
    });
  }

  showPremove(usi: string | undefined): void {
    if (usi === this.currentPremove()) return;
    const move = usi ? parseMove(usi) : undefined;
    this.ground.state.premovable.current = move?.kind === 'move' ? [move.from as Key, move.to as Key] : undefined;
    this.ground.state.dom.redraw();
  }

  /** The premove chessground holds, as UCI. */
  private currentPremove(): string | undefined {
    const current = this.ground.state.premovable.current;
    return current ? `${current[0]}${current[1]}` : undefined;
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
