// Koma's own piece images, drawn as SVG: the classic shogi pentagon with
// one kanji, two kanji, a picture of the piece's movement or a Latin letter
// (the faces are in pieces/), and a pawn for Pawns-Only Chess. The images
// become CSS rules (data URIs) that style the widgets' <piece> elements.

import type { VariantInfo, PieceSet } from './variants';
import { lettersFace, oneKanjiFace, twoKanjiFace } from './pieces/faces';
import { internationalFace } from './pieces/international';
import type { Movement } from './pieces/movement';
import { pieceDocument } from './pieces/svg';

/** What one shogi role shows: its kanji, its Latin letter, its name and moves. */
export interface Face {
  /** The one-kanji name (玉, 飛, と). */
  kanji: string;
  /** The two-kanji name of traditional pieces (玉将, 飛車, と金). */
  kanji2: string;
  letter: string;
  name: string;
  /** How it moves, for the international set's picture. */
  movement: Movement;
  promoted: boolean;
  /** Relative size of the pentagon: kings largest, pawns smallest. */
  size: number;
}

/**
 * One piece as an SVG document in `set`; `upsideDown` for the player across
 * the board; `smallLetter` puts the Latin letter under the one-kanji face
 * (Spear's seed view), and is ignored by the other sets.
 */
export function shogiPieceSvg(face: Face, set: PieceSet, upsideDown: boolean, smallLetter: boolean): string {
  return pieceDocument(face.size, faceSvg(face, set, smallLetter), upsideDown);
}

function faceSvg(face: Face, set: PieceSet, smallLetter: boolean): string {
  switch (set) {
    case 'kanji':
      return oneKanjiFace(face, smallLetter);
    case 'two-kanji':
      return twoKanjiFace(face);
    case 'international':
      return internationalFace(face);
    case 'letters':
      return lettersFace(face);
  }
}

/** The face the second player's king shows: 王 where the first has 玉. */
export function goteKing(face: Face): Face {
  return { ...face, kanji: '王', kanji2: '王将' };
}

/** A chess pawn, white or black. */
export function pawnSvg(white: boolean): string {
  const fill = white ? '#fbfbf7' : '#2b2b2b';
  const line = white ? '#1c1c1c' : '#000000';
  const shine = white ? '#ffffff' : '#5a5a5a';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">` +
    `<g fill="${fill}" stroke="${line}" stroke-width="3" stroke-linejoin="round">` +
    // base
    `<path d="M24 86 Q24 77 33 75 L67 75 Q76 77 76 86 Z"/>` +
    // body
    `<path d="M36 75 Q40 62 42 50 L58 50 Q60 62 64 75 Z"/>` +
    // collar
    `<path d="M35 50 Q35 44 41 44 L59 44 Q65 44 65 50 Z"/>` +
    // head
    `<circle cx="50" cy="30" r="14"/>` +
    `</g>` +
    `<circle cx="45" cy="25" r="4" fill="${shine}" opacity="0.7"/>` +
    `</svg>`
  );
}

/** An SVG document as a CSS url() value. */
export const dataUri = (svg: string): string => `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}")`;

/** CSS rules drawing every role of `variant` in the chosen set, both ways up. */
export function shogiPieceCss(variant: VariantInfo, set: PieceSet): string {
  const rules: string[] = [];
  for (const [role, face] of Object.entries(variant.faces)) {
    for (const color of ['sente', 'gote'] as const) {
      const other = color === 'sente' ? 'gote' : 'sente';
      const shown = role === 'king' && color === 'gote' ? goteKing(face) : face;
      const upright = dataUri(shogiPieceSvg(shown, set, false, variant.letterOnKanji));
      const turned = dataUri(shogiPieceSvg(shown, set, true, variant.letterOnKanji));
      rules.push(`.orientation-${color} piece.${color}.${role}{background-image:${upright}}`);
      rules.push(`.orientation-${other} piece.${color}.${role}{background-image:${turned}}`);
    }
  }
  return rules.join('\n');
}

/** CSS rules drawing the chess pawns. */
export function chessPieceCss(): string {
  return [
    `.cg-wrap piece.pawn.white{background-image:${dataUri(pawnSvg(true))}}`,
    `.cg-wrap piece.pawn.black{background-image:${dataUri(pawnSvg(false))}}`,
  ].join('\n');
}
