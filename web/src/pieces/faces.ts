// The faces of the written piece sets: one kanji (with the seed's letter
// beneath it for Spear), two kanji stacked as on traditional pieces, and
// Latin letters with the English name. Each returns SVG drawn about the
// piece's centre in the 100×100 box, to lie on the pentagon.

import type { Face } from '../pieces';
import { CENTRE_Y, INK, KANJI_FONT, LATIN_FONT, PROMOTED_INK, text } from './svg';

const X = 50;
const ink = (face: Face): string => (face.promoted ? PROMOTED_INK : INK);

/** One kanji filling the pentagon; with `letter`, the Latin letter under a smaller kanji. */
export function oneKanjiFace(face: Face, letter: boolean): string {
  const s = face.size;
  if (!letter) return text(face.kanji, X, CENTRE_Y + 17 * s, 50 * s, KANJI_FONT, ink(face));
  return (
    text(face.kanji, X, CENTRE_Y + 12 * s, 44 * s, KANJI_FONT, ink(face)) +
    text((face.promoted ? '+' : '') + face.letter, X, CENTRE_Y + 38 * s, 15 * s, LATIN_FONT, ink(face))
  );
}

/**
 * Two kanji, one above the other, as traditional pieces write a piece's
 * full name (王将, 飛車, と金). A single character is drawn once, larger.
 */
export function twoKanjiFace(face: Face): string {
  const s = face.size;
  const [upper, lower] = Array.from(face.kanji2);
  if (upper === undefined) return '';
  if (lower === undefined) return text(upper, X, CENTRE_Y + 17 * s, 50 * s, KANJI_FONT, ink(face));
  // A CJK glyph spans about 0.88 of its size above the baseline and 0.12
  // below: the two glyphs sit between the shoulders and the base.
  const size = 35 * s;
  return (
    text(upper, X, CENTRE_Y - 2 * s, size, KANJI_FONT, ink(face)) +
    text(lower, X, CENTRE_Y + 34 * s, size, KANJI_FONT, ink(face))
  );
}

/** The Latin letter large, with the piece's English name under it. */
export function lettersFace(face: Face): string {
  const s = face.size;
  const label = (face.promoted ? '+' : '') + face.letter;
  const letterSize = (label.length > 1 ? 36 : 44) * s;
  const nameSize = (face.name.length > 7 ? 11 : 13) * s;
  return (
    text(label, X, CENTRE_Y + 12 * s, letterSize, LATIN_FONT, ink(face)) +
    text(face.name, X, CENTRE_Y + 36 * s, nameSize, LATIN_FONT, ink(face), false)
  );
}
