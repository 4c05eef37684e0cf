import { describe, expect, it } from 'vitest';
import { chessPieceCss, goteKing, pawnSvg, shogiPieceCss, shogiPieceSvg, type Face } from '../src/pieces';
import { INK, PROMOTED_INK } from '../src/pieces/svg';
import { PIECE_SETS, PROMOTES_TO, VARIANTS, isPieceSet, type VariantInfo } from '../src/variants';
import { allElements, parseXml, type XmlElement } from './xml';

// The roles each game's board holds, as crates/rules/src/variants/*.rs
// list them, in shogiground's names.
const BOARD_ROLES: Record<string, string[]> = {
  shogi: ['king', 'rook', 'bishop', 'gold', 'silver', 'knight', 'lance', 'pawn', 'dragon', 'horse', 'promotedsilver', 'promotedknight', 'promotedlance', 'tokin'],
  minishogi: ['king', 'rook', 'bishop', 'gold', 'silver', 'pawn', 'dragon', 'horse', 'promotedsilver', 'tokin'],
  spear: ['king', 'gold', 'silver', 'bishop', 'lance', 'pawn', 'promotedsilver', 'horse', 'promotedlance', 'tokin'],
};

const SHOGI_VARIANTS: VariantInfo[] = Object.values(VARIANTS).filter((variant) => variant.widget === 'shogiground');

/** Every piece image of the shogi games: variant, set, role, colour, both ways up. */
function* everyPiece(): Generator<{ label: string; face: Face; svg: string; upsideDown: boolean }> {
  for (const variant of SHOGI_VARIANTS)
    for (const { id: set } of PIECE_SETS)
      for (const [role, face] of Object.entries(variant.faces))
        for (const gote of [false, true])
          for (const upsideDown of [false, true]) {
            const shown = gote && role === 'king' ? goteKing(face) : face;
            yield {
              label: `${variant.id} ${set} ${gote ? 'gote' : 'sente'} ${role}${upsideDown ? ' turned' : ''}`,
              face: shown,
              svg: shogiPieceSvg(shown, set, upsideDown, variant.letterOnKanji),
              upsideDown,
            };
          }
}

/** The elements that draw the face: everything but the pentagon and its wood. */
const inked = (root: XmlElement): XmlElement[] =>
  allElements(root).filter((element) => ['text', 'circle', 'line'].includes(element.name) || (element.name === 'polygon' && element.attributes.fill !== 'url(#wood)'));

const inkOf = (element: XmlElement): string | undefined => element.attributes.fill ?? element.attributes.stroke;

describe('piece sets', () => {
  it('has a face for every role of every shogi game', () => {
    for (const variant of SHOGI_VARIANTS) {
      // Minishogi shares shogi's faces, so a game may have more than it uses.
      const roles = [...BOARD_ROLES[variant.id], ...variant.handRoles];
      for (const role of roles) expect(variant.faces[role], `${variant.id} ${role}`).toBeDefined();
      // Each hand piece that promotes has its promoted face (Spear's gold and king do not).
      for (const role of variant.handRoles.filter((role) => PROMOTES_TO[role]))
        expect(variant.faces[PROMOTES_TO[role]], `${variant.id} promoted ${role}`).toBeDefined();
      for (const face of Object.values(variant.faces)) expect(Array.from(face.kanji2), `${variant.id} ${face.name}`).toHaveLength(2);
    }
  });

  it('draws every piece in every set as a well-formed SVG with something on it', () => {
    let count = 0;
    for (const piece of everyPiece()) {
      const root = parseXml(piece.svg);
      expect(root.name, piece.label).toBe('svg');
      expect(root.attributes.viewBox, piece.label).toBe('0 0 100 100');
      expect(inked(root).length, piece.label).toBeGreaterThan(0);
      count++;
    }
    // Shogi's 14 faces (minishogi's too) and Spear's 10 × 4 sets × 2 colours × 2 ways up.
    expect(count).toBe((14 + 14 + 10) * 4 * 2 * 2);
  });

  it('writes the piece: its kanji, its two kanji, its letter', () => {
    const texts = (face: Face, set: (typeof PIECE_SETS)[number]['id'], letter = false): string =>
      allElements(parseXml(shogiPieceSvg(face, set, false, letter)))
        .filter((element) => element.name === 'text')
        .map((element) => element.text)
        .join('|');
    const { shogi, spear } = VARIANTS;
    expect(texts(shogi.faces.king, 'kanji')).toBe('玉');
    expect(texts(goteKing(shogi.faces.king), 'two-kanji')).toBe('王|将');
    expect(texts(shogi.faces.tokin, 'two-kanji')).toBe('と|金');
    expect(texts(shogi.faces.dragon, 'two-kanji')).toBe('龍|王');
    expect(texts(shogi.faces.knight, 'international')).toBe('N');
    expect(texts(shogi.faces.dragon, 'letters')).toBe('+R|dragon');
    // Spear's seed view: the letter under the kanji, as before.
    expect(texts(spear.faces.promotedlance, 'kanji', spear.letterOnKanji)).toBe('飛|+L');
  });

  it('draws the international set as the piece moves', () => {
    const marks = (face: Face): Record<string, number> => {
      const count: Record<string, number> = {};
      for (const element of inked(parseXml(shogiPieceSvg(face, 'international', false, false))))
        count[element.name] = (count[element.name] ?? 0) + 1;
      return count;
    };
    const { shogi, spear } = VARIANTS;
    // A step is a dot; a slide a shaft (line) and a head (polygon).
    expect(marks(shogi.faces.king)).toEqual({ circle: 8, text: 1 });
    expect(marks(shogi.faces.gold)).toEqual({ circle: 6, text: 1 });
    expect(marks(shogi.faces.knight)).toEqual({ circle: 2, text: 1 });
    expect(marks(shogi.faces.rook)).toEqual({ line: 4, polygon: 4, text: 1 });
    expect(marks(shogi.faces.dragon)).toEqual({ line: 4, polygon: 4, circle: 4, text: 1 });
    expect(marks(spear.faces.bishop)).toEqual({ line: 2, polygon: 2, text: 1 });
    expect(marks(spear.faces.promotedsilver)).toEqual({ circle: 16, text: 1 });
    // Promoted pieces that move alike still differ from gold by colour and letter.
    expect(marks(shogi.faces.tokin)).toEqual(marks(shogi.faces.gold));
  });

  it("keeps the international set's marks inside the pentagon, clear of its edge", () => {
    // The pentagon is convex: a point is inside, `margin` clear of the edge,
    // when it is that far inside every side's line (the points go clockwise).
    const clearance = (corners: number[][], x: number, y: number): number =>
      Math.min(
        ...corners.map(([ax, ay], i) => {
          const [bx, by] = corners[(i + 1) % corners.length];
          return ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / Math.hypot(bx - ax, by - ay);
        }),
      );
    const HALF_STROKE = 1.1;
    for (const variant of SHOGI_VARIANTS)
      for (const [role, face] of Object.entries(variant.faces)) {
        const root = parseXml(shogiPieceSvg(face, 'international', false, false));
        const elements = allElements(root);
        const corners = (elements.find((element) => element.attributes.fill === 'url(#wood)')?.attributes.points ?? '')
          .split(' ')
          .map((point) => point.split(',').map(Number));
        const group = elements.find((element) => element.attributes.transform?.startsWith('translate'));
        const [, tx, ty, scale] = /translate\(([\d.]+) ([\d.]+)\) scale\(([\d.]+)\)/.exec(group?.attributes.transform ?? '') ?? [];
        const at = (x: string | number, y: string | number): [number, number] => [
          Number(tx) + Number(scale) * Number(x),
          Number(ty) + Number(scale) * Number(y),
        ];
        const check = (x: number, y: number, reach: number, what: string): void =>
          expect(clearance(corners, x, y), `${variant.id} ${role} ${what}`).toBeGreaterThanOrEqual(reach * Number(scale) + HALF_STROKE + 0.5);
        for (const element of allElements(group ?? root)) {
          const a = element.attributes;
          if (element.name === 'circle') check(...at(a.cx, a.cy), Number(a.r), 'dot');
          if (element.name === 'line') {
            check(...at(a.x1, a.y1), Number(a['stroke-width']) / 2, 'shaft');
            check(...at(a.x2, a.y2), Number(a['stroke-width']) / 2, 'shaft');
          }
          if (element.name === 'polygon')
            for (const point of a.points.split(' ')) check(...at(...(point.split(',') as [string, string])), 0, 'arrowhead');
        }
      }
  });

  it('inks promoted pieces red and the others black', () => {
    for (const piece of everyPiece()) {
      const inks = new Set(inked(parseXml(piece.svg)).map(inkOf));
      expect([...inks], piece.label).toEqual([piece.face.promoted ? PROMOTED_INK : INK]);
    }
  });

  it('turns the pieces of the player across the board round, and only those', () => {
    for (const piece of everyPiece()) {
      const root = parseXml(piece.svg);
      const turns = allElements(root).filter((element) => element.attributes.transform?.startsWith('rotate('));
      if (piece.upsideDown) {
        expect(turns.map((element) => element.attributes.transform), piece.label).toEqual(['rotate(180 50 50)']);
        // The whole piece turns: the pentagon is inside the turned group.
        expect(turns[0].children[0].name, piece.label).toBe('polygon');
      } else expect(turns, piece.label).toEqual([]);
    }
  });

  it('styles every role of each colour both ways up', () => {
    for (const variant of SHOGI_VARIANTS)
      for (const { id: set } of PIECE_SETS) {
        const rules = shogiPieceCss(variant, set).split('\n');
        expect(rules, `${variant.id} ${set}`).toHaveLength(Object.keys(variant.faces).length * 4);
        for (const role of Object.keys(variant.faces))
          for (const rule of [`.orientation-sente piece.gote.${role}{`, `.orientation-gote piece.sente.${role}{`])
            expect(rules.some((line) => line.startsWith(rule)), `${variant.id} ${set} ${rule}`).toBe(true);
      }
  });

  it('knows its piece set names', () => {
    for (const { id } of PIECE_SETS) expect(isPieceSet(id)).toBe(true);
    expect(isPieceSet('letters')).toBe(true);
    expect(isPieceSet('kanji3')).toBe(false);
    expect(isPieceSet(null)).toBe(false);
  });

  it('draws the chess pawns as well-formed SVG', () => {
    parseXml(pawnSvg(true));
    parseXml(pawnSvg(false));
    expect(chessPieceCss().split('\n')).toHaveLength(2);
  });
});
