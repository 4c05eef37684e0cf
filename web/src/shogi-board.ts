// Spear Shogi, minishogi and shogi on lishogi's shogiground.

import { Shogiground } from 'shogiground';
import type { Api } from 'shogiground/api';
import type { Config } from 'shogiground/config';
import type { Color as SgColor, Key, Piece, MoveDests, DropDests, PieceName, Pieces } from 'shogiground/types';
import type { Color } from './api';
import { boardActor, forgetBoundsOnPress, parseMove, type Arrow, type Board, type BoardView, type OnMove, type OnPremove } from './board';
import { predropDests, premoveDests, premovePromotion } from './premove';
import { DROP_LETTERS, DROP_ROLES, PROMOTES_TO, UNPROMOTES_TO, type VariantInfo } from './variants';

export interface ShogiElements {
  board: HTMLElement;
  handTop: HTMLElement;
  handBottom: HTMLElement;
}

/** The brush of each kind of arrow; style.css colours them (shogiground draws by CSS). */
const BRUSHES: Record<Arrow['kind'], string> = { best: 'paleBlue', better: 'paleGreen' };

const asSg = (color: Color): SgColor => (color === 'sente' || color === 'black' ? 'sente' : 'gote');

export class ShogiBoard implements Board {
  private readonly ground: Api;
  /** Board moves by from+to, with the forms the server lists: plain, promoting or both. */
  private forms = new Map<string, { plain: boolean; promote: boolean }>();
  private readonly unbind: () => void;

  constructor(
    private readonly variant: VariantInfo,
    elements: ShogiElements,
    orientation: Color,
    private readonly onMove: OnMove,
    private readonly onPremove: OnPremove,
  ) {
    // The widget tells of a premove set or gone a moment later (its events
    // are deferred): what it reports is the premove it holds by then.
    const report = () => this.onPremove(this.currentPremove());
    const config: Config = {
      orientation: asSg(orientation),
      activeColor: undefined,
      scaleDownPieces: false,
      // Spear's edges carry its seed's labels: columns 1–5 and rows 1–5,
      // which are the USI files and ranks (rank a = row 1).
      coordinates: { enabled: true, files: 'numeric', ranks: variant.id === 'spear' ? 'numeric' : 'japanese' },
      highlight: { lastDests: true, check: true, checkRoles: ['king'] },
      animation: { enabled: true, duration: 180 },
      hands: { inlined: false, roles: variant.handRoles },
      movable: { free: false, showDests: true, events: { after: (orig, dest, prom) => this.moved(orig, dest, prom) } },
      droppable: { free: false, showDests: true, events: { after: (piece, key) => this.dropped(piece, key) } },
      premovable: {
        enabled: false,
        showDests: true,
        generate: (key, pieces) => {
          const piece = pieces.get(key);
          return piece ? (premoveDests(variant, piece.role, piece.color, key) as Key[]) : [];
        },
        events: { set: report, unset: report },
      },
      predroppable: {
        enabled: false,
        showDests: true,
        generate: (piece, pieces) => predropDests(variant, piece.role, piece.color, ownSquares(pieces, piece.color)) as Key[],
        events: { set: report, unset: report },
      },
      draggable: { enabled: true, showGhost: true },
      selectable: { enabled: true },
      drawable: { enabled: true, visible: true },
      promotion: {
        promotesTo: (role) => PROMOTES_TO[role],
        unpromotesTo: (role) => UNPROMOTES_TO[role],
        // A move asks as the server's list says; a premove (a piece of the
        // side not to move) asks as the rules of its zone say.
        movePromotionDialog: (orig, dest) => {
          const premove = this.premovePromotion(orig, dest);
          if (premove) return premove === 'optional';
          const form = this.forms.get(orig + dest);
          return !!form && form.plain && form.promote;
        },
        forceMovePromotion: (orig, dest) => {
          const premove = this.premovePromotion(orig, dest);
          if (premove) return premove === 'forced';
          const form = this.forms.get(orig + dest);
          return !!form && form.promote && !form.plain;
        },
        dropPromotionDialog: () => false,
        forceDropPromotion: () => false,
      },
    };
    this.ground = Shogiground(config, {
      board: elements.board,
      hands: { top: elements.handTop, bottom: elements.handBottom },
    });
    const bounds = this.ground.state.dom.bounds;
    this.unbind = forgetBoundsOnPress(() => {
      bounds.board.bounds.clear();
      bounds.hands.bounds.clear();
      bounds.hands.pieceBounds.clear();
    });
  }

  show(view: BoardView): void {
    const [board, turnLetter, hands] = view.position.split(' ');
    const turn: SgColor = turnLetter === 'w' ? 'gote' : 'sente';
    const moveDests: MoveDests = new Map();
    const dropDests: DropDests = new Map();
    this.forms = new Map();
    for (const text of view.legalMoves) {
      const move = parseMove(text);
      if (!move) continue;
      if (move.kind === 'drop') {
        const role = DROP_ROLES[move.letter];
        if (!role) continue;
        const name = `${turn} ${role}` as PieceName;
        dropDests.set(name, [...(dropDests.get(name) ?? []), move.to as Key]);
      } else {
        const from = move.from as Key;
        const list = moveDests.get(from) ?? [];
        if (!list.includes(move.to as Key)) list.push(move.to as Key);
        moveDests.set(from, list);
        const form = this.forms.get(move.from + move.to) ?? { plain: false, promote: false };
        if (move.promote) form.promote = true;
        else form.plain = true;
        this.forms.set(move.from + move.to, form);
      }
    }
    const last = view.lastMove ? parseMove(view.lastMove) : undefined;
    let lastDests: Key[] | undefined;
    let lastPiece: Piece | undefined;
    if (last?.kind === 'move') lastDests = [last.from as Key, last.to as Key];
    else if (last?.kind === 'drop') {
      lastDests = [last.to as Key];
      lastPiece = { role: DROP_ROLES[last.letter], color: turn === 'sente' ? 'gote' : 'sente' };
    }
    // The player's side is active on its turn, and while the other side is
    // to move when it may premove; the other side's legal moves are not its.
    const actor = boardActor(view);
    const active: SgColor | undefined = actor === 'move' ? turn : actor === 'premove' ? asSg(view.movable as Color) : undefined;
    const ownTurn = actor === 'move';
    const premovable = actor === 'premove';
    this.ground.cancelMoveOrDrop();
    this.ground.set({
      sfen: { board, hands: hands || '-' },
      turnColor: turn,
      activeColor: active,
      checks: view.check,
      lastDests,
      lastPiece,
      movable: { dests: ownTurn ? moveDests : new Map() },
      droppable: { dests: ownTurn ? dropDests : new Map() },
      premovable: { enabled: premovable },
      predroppable: { enabled: premovable },
    });
  }

  showPremove(usi: string | undefined): void {
    if (usi === this.currentPremove()) return;
    const state = this.ground.state;
    state.premovable.current = undefined;
    state.predroppable.current = undefined;
    const move = usi ? parseMove(usi) : undefined;
    const color = state.activeColor;
    if (move?.kind === 'move') state.premovable.current = { orig: move.from as Key, dest: move.to as Key, prom: move.promote };
    else if (move?.kind === 'drop' && DROP_ROLES[move.letter] && (color === 'sente' || color === 'gote'))
      state.predroppable.current = { piece: { role: DROP_ROLES[move.letter], color }, key: move.to as Key, prom: false };
    state.dom.redraw();
  }

  /** The premove or pre-drop the widget holds, as USI. */
  private currentPremove(): string | undefined {
    const { premovable, predroppable } = this.ground.state;
    if (premovable.current) return `${premovable.current.orig}${premovable.current.dest}${premovable.current.prom ? '+' : ''}`;
    const drop = predroppable.current;
    const letter = drop && DROP_LETTERS[drop.piece.role];
    return letter ? `${letter}*${drop.key}` : undefined;
  }

  /** How a premove from `orig` to `dest` promotes; undefined when it is a move of the side to move. */
  private premovePromotion(orig: Key, dest: Key): 'none' | 'optional' | 'forced' | undefined {
    const state = this.ground.state;
    const piece = state.pieces.get(orig);
    if (!piece || piece.color === state.turnColor || piece.color !== state.activeColor) return undefined;
    return premovePromotion(this.variant, piece.role, piece.color, orig, dest);
  }

  showArrows(arrows: Arrow[]): void {
    const shapes = arrows.flatMap((arrow) => {
      const move = parseMove(arrow.usi);
      if (!move || (move.kind === 'drop' && !DROP_ROLES[move.letter])) return [];
      const color = arrow.color ? asSg(arrow.color) : this.ground.state.turnColor;
      // A drop's arrow starts at the piece in its player's hand.
      const orig: Key | Piece = move.kind === 'drop' ? { role: DROP_ROLES[move.letter], color } : (move.from as Key);
      return [{ orig, dest: move.to as Key, brush: BRUSHES[arrow.kind] }];
    });
    this.ground.setAutoShapes(shapes);
  }

  setOrientation(color: Color): void {
    if (this.ground.state.orientation !== asSg(color)) this.ground.toggleOrientation();
  }

  destroy(): void {
    this.unbind();
    this.ground.destroy();
  }

  private moved(orig: Key, dest: Key, promote: boolean): void {
    this.onMove(`${orig}${dest}${promote ? '+' : ''}`);
  }

  private dropped(piece: Piece, key: Key): void {
    const letter = DROP_LETTERS[piece.role];
    if (letter) this.onMove(`${letter}*${key}`);
  }
}

/** The squares `color`'s pieces stand on. */
function ownSquares(pieces: Pieces, color: SgColor): Set<string> {
  const out = new Set<string>();
  for (const [key, piece] of pieces) if (piece.color === color) out.add(key);
  return out;
}
