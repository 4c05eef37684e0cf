// What every shogi piece image shares: the pentagon of wood, the inks, the
// fonts, and the SVG document that holds a face upright or turned round.

/** The ink of an unpromoted piece. */
export const INK = '#1a1209';
/** The red ink of a promoted piece, as on real pieces. */
export const PROMOTED_INK = '#c0161b';

export const KANJI_FONT = "'Noto Serif CJK JP','Noto Sans CJK JP','Hiragino Mincho ProN','Yu Mincho','MS Mincho',serif";
export const LATIN_FONT = "'DejaVu Sans','Helvetica Neue',Arial,sans-serif";

/** The piece's centre in the 100×100 box; faces are drawn around it. */
export const CENTRE_X = 50;
export const CENTRE_Y = 52;

export const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;').replace(/"/g, '&quot;');

/** A number as SVG attributes write it: one decimal, no "-0.0". */
export const num = (value: number): string => {
  const text = value.toFixed(1);
  return text === '-0.0' ? '0.0' : text;
};

/**
 * The pentagon of a piece of relative size `s`, about the centre: the point
 * 46 above, the shoulders 34 above and 29 to each side, the base 44 below
 * and 38 to each side (units of the 100×100 box at size 1).
 */
export function pentagon(s: number): string {
  const point = (x: number, y: number): string => `${num(CENTRE_X + x * s)},${num(CENTRE_Y + y * s)}`;
  return [point(0, -46), point(29, -34), point(38, 44), point(-38, 44), point(-29, -34)].join(' ');
}

/** Text of one line, centred on `x` with its baseline at `y`. */
export function text(
  content: string,
  x: number,
  y: number,
  size: number,
  font: string,
  ink: string,
  bold = true,
): string {
  return (
    `<text x="${num(x)}" y="${num(y)}" font-size="${num(size)}" text-anchor="middle" ` +
    `font-family="${font}"${bold ? ' font-weight="700"' : ''} fill="${ink}">${escapeXml(content)}</text>`
  );
}

/**
 * The SVG document of a piece of size `s` with `face` drawn over its
 * pentagon; `upsideDown` turns it round for the player across the board.
 */
export function pieceDocument(s: number, face: string, upsideDown: boolean): string {
  const body =
    `<polygon points="${pentagon(s)}" fill="url(#wood)" stroke="#5a3d17" stroke-width="2.2" stroke-linejoin="round"/>` +
    face;
  const turned = upsideDown ? `<g transform="rotate(180 50 50)">${body}</g>` : body;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">` +
    `<defs><linearGradient id="wood" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#fbe9b7"/><stop offset="1" stop-color="#e2b766"/></linearGradient></defs>` +
    turned +
    `</svg>`
  );
}
