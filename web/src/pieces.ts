// Koma's own piece images, drawn as SVG: the classic shogi pentagon with a
// kanji or a Latin letter, and a pawn for Pawns-Only Chess. The images become
// CSS rules (data URIs) that style the widgets' <piece> elements.

import type { VariantInfo, PieceSet } from './variants';

/** What one shogi role shows: its kanji, its Latin letter and its name. */
export interface Face {
  kanji: string;
  letter: string;
  name: string;
  promoted: boolean;
  /** Relative size of the pentagon: kings largest, pawns smallest. */
  size: number;
}

const KANJI_FONT = "'Noto Serif CJK JP','Noto Sans CJK JP','Hiragino Mincho ProN','Yu Mincho','MS Mincho',serif";
const LATIN_FONT = "'DejaVu Sans','Helvetica Neue',Arial,sans-serif";

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');

/** The pentagon of a piece of relative size `s` in a 100×100 box. */
function pentagon(s: number): string {
  const point = (x: number, y: number): string => `${(50 + x * s).toFixed(1)},${(52 + y * s).toFixed(1)}`;
  return [point(0, -46), point(29, -34), point(38, 44), point(-38, 44), point(-29, -34)].join(' ');
}

/** One piece as an SVG document; `upsideDown` for the player across the board. */
export function shogiPieceSvg(face: Face, set: PieceSet, upsideDown: boolean, smallLetter: boolean): string {
  const s = face.size;
  const ink = face.promoted ? '#c0161b' : '#1a1209';
  let text: string;
  if (set === 'kanji') {
    const kanjiSize = 50 * s;
    text = `<text x="50" y="${(52 + 17 * s).toFixed(1)}" font-size="${kanjiSize.toFixed(1)}" text-anchor="middle" font-family="${KANJI_FONT}" font-weight="700" fill="${ink}">${escapeXml(face.kanji)}</text>`;
    if (smallLetter) {
      text = `<text x="50" y="${(52 + 12 * s).toFixed(1)}" font-size="${(44 * s).toFixed(1)}" text-anchor="middle" font-family="${KANJI_FONT}" font-weight="700" fill="${ink}">${escapeXml(face.kanji)}</text>`;
      text += `<text x="50" y="${(52 + 38 * s).toFixed(1)}" font-size="${(15 * s).toFixed(1)}" text-anchor="middle" font-family="${LATIN_FONT}" font-weight="700" fill="${ink}">${escapeXml((face.promoted ? '+' : '') + face.letter)}</text>`;
    }
  } else {
    const label = (face.promoted ? '+' : '') + face.letter;
    const letterSize = (label.length > 1 ? 36 : 44) * s;
    const nameSize = (face.name.length > 7 ? 11 : 13) * s;
    text =
      `<text x="50" y="${(52 + 12 * s).toFixed(1)}" font-size="${letterSize.toFixed(1)}" text-anchor="middle" font-family="${LATIN_FONT}" font-weight="700" fill="${ink}">${escapeXml(label)}</text>` +
      `<text x="50" y="${(52 + 36 * s).toFixed(1)}" font-size="${nameSize.toFixed(1)}" text-anchor="middle" font-family="${LATIN_FONT}" fill="${ink}">${escapeXml(face.name)}</text>`;
  }
  const body =
    `<polygon points="${pentagon(s)}" fill="url(#wood)" stroke="#5a3d17" stroke-width="2.2" stroke-linejoin="round"/>` + text;
  const turned = upsideDown ? `<g transform="rotate(180 50 50)">${body}</g>` : body;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">` +
    `<defs><linearGradient id="wood" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#fbe9b7"/><stop offset="1" stop-color="#e2b766"/></linearGradient></defs>` +
    turned +
    `</svg>`
  );
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

export const dataUri = (svg: string): string => `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}")`;

/** CSS rules drawing every role of `variant` in the chosen set, both ways up. */
export function shogiPieceCss(variant: VariantInfo, set: PieceSet): string {
  const rules: string[] = [];
  for (const [role, face] of Object.entries(variant.faces)) {
    for (const color of ['sente', 'gote'] as const) {
      const other = color === 'sente' ? 'gote' : 'sente';
      const shown: Face = role === 'king' && color === 'gote' ? { ...face, kanji: '王' } : face;
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
