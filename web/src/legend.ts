// The piece images in use and the legend that names each piece.

import { chessPieceCss, dataUri, pawnSvg, shogiPieceCss, shogiPieceSvg } from './pieces';
import type { PieceSet, VariantInfo } from './variants';

let styleElement: HTMLStyleElement | undefined;

/** Puts the CSS of `variant`'s pieces in `set` into the page. */
export function usePieces(variant: VariantInfo, set: PieceSet): void {
  if (!styleElement) {
    styleElement = document.createElement('style');
    styleElement.id = 'piece-images';
    document.head.appendChild(styleElement);
  }
  styleElement.textContent = variant.widget === 'chessground' ? chessPieceCss() : shogiPieceCss(variant, set);
}

/** Lists each piece of the game with its picture, letter and name. */
export function renderLegend(list: HTMLUListElement, variant: VariantInfo, set: PieceSet): void {
  list.textContent = '';
  const entry = (image: string, text: string): void => {
    const li = document.createElement('li');
    const picture = document.createElement('span');
    picture.className = 'legend-piece';
    picture.style.backgroundImage = image;
    li.appendChild(picture);
    li.appendChild(document.createTextNode(text));
    list.appendChild(li);
  };
  if (variant.widget === 'chessground') {
    entry(dataUri(pawnSvg(true)), 'pawn (White)');
    entry(dataUri(pawnSvg(false)), 'pawn (Black)');
    return;
  }
  const baseNames = new Set(Object.values(variant.faces).filter((face) => !face.promoted).map((face) => face.name));
  for (const face of Object.values(variant.faces)) {
    const promotedName = face.promoted && baseNames.has(face.name) ? `promoted ${face.name}` : face.name;
    const label = `${face.promoted ? '+' : ''}${face.letter} ${face.kanji} ${promotedName}`;
    entry(dataUri(shogiPieceSvg(face, set, false, variant.letterOnKanji)), label);
  }
}
