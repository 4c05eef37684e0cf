// The international face: a picture of how the piece moves, for players who
// do not read kanji. Around the piece's Western letter, a dot is a square it
// may step to, two dots in a line are one or two squares, an arrow is a
// slide of any distance, and the two dots two rows ahead are the knight's
// jumps. Promoted pieces are drawn in red, like the kanji of real pieces.
// The picture is drawn for the piece's owner; a turned piece points the
// other way, as its moves do.

import type { Face } from '../pieces';
import { DIRECTION_STEPS, type Direction } from './movement';
import { CENTRE_X, CENTRE_Y, INK, LATIN_FONT, PROMOTED_INK, num, text } from './svg';

/** The diagram's centre, below the pentagon's (its top is narrow). */
const MIDDLE_Y = 5;
/** The distance of a one-square step, as on a board of this pitch. */
const STEP = 17;
const DOT = 4.2;
const SMALL_DOT = 3.3;

/**
 * How far each arrow reaches: as far as the pentagon allows, which is far
 * towards its point and not so far to the sides.
 */
const ARROW_END: Record<Direction, number> = { n: 39, ne: 33, e: 30, se: 33, s: 34, sw: 33, w: 30, nw: 33 };

const unit = (direction: Direction): [number, number] => {
  const [dx, dy] = DIRECTION_STEPS[direction];
  const length = Math.hypot(dx, dy);
  return [dx / length, dy / length];
};

const dot = (x: number, y: number, r: number, ink: string): string =>
  `<circle cx="${num(x)}" cy="${num(MIDDLE_Y + y)}" r="${num(r)}" fill="${ink}"/>`;

/** A slide: a shaft out from the letter and a head at the far end. */
function arrow(direction: Direction, ink: string): string {
  const [ux, uy] = unit(direction);
  const start = 12;
  const end = ARROW_END[direction];
  const head = 9;
  const half = 5;
  const point = (distance: number, across = 0): string =>
    `${num(ux * distance - uy * across)},${num(MIDDLE_Y + uy * distance + ux * across)}`;
  return (
    `<line x1="${num(ux * start)}" y1="${num(MIDDLE_Y + uy * start)}" x2="${num(ux * (end - head + 1))}" ` +
    `y2="${num(MIDDLE_Y + uy * (end - head + 1))}" stroke="${ink}" stroke-width="3.4" stroke-linecap="round"/>` +
    `<polygon points="${point(end)} ${point(end - head, half)} ${point(end - head, -half)}" fill="${ink}"/>`
  );
}

/** The movement picture and the letter, about the centre of a size-1 piece. */
function diagram(face: Face, ink: string): string {
  const { steps, twoSteps, slides, knightJumps } = face.movement;
  const marks: string[] = [];
  for (const direction of slides) marks.push(arrow(direction, ink));
  for (const direction of steps) {
    const [dx, dy] = DIRECTION_STEPS[direction];
    marks.push(dot(dx * STEP, dy * STEP, DOT, ink));
  }
  for (const direction of twoSteps) {
    const [dx, dy] = DIRECTION_STEPS[direction];
    // The second square as far out as the pentagon's slanted sides allow.
    const far = dx !== 0 && dy !== 0 ? 1.42 : 1.55;
    marks.push(dot(dx * STEP, dy * STEP, DOT, ink));
    marks.push(dot(dx * STEP * far, dy * STEP * far, SMALL_DOT, ink));
  }
  if (knightJumps) {
    marks.push(dot(-STEP, -2 * STEP, DOT, ink));
    marks.push(dot(STEP, -2 * STEP, DOT, ink));
  }
  // The letter's capitals are about 0.73 of its size high: centre them.
  const size = 19;
  marks.push(text(face.letter, 0, MIDDLE_Y + size * 0.36, size, LATIN_FONT, ink));
  return marks.join('');
}

/** The international face of `face`, to lie on its pentagon. */
export function internationalFace(face: Face): string {
  const ink = face.promoted ? PROMOTED_INK : INK;
  return `<g transform="translate(${CENTRE_X} ${CENTRE_Y}) scale(${face.size})">${diagram(face, ink)}</g>`;
}
