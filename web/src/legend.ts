// The piece images in use: the page's one style sheet of pieces, which the
// board's widget draws with (view/side-panels.ts lists and names them).

import { chessPieceCss, shogiPieceCss } from './pieces';
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
