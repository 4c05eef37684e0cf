// Loading and saving game records through the server, which reads and
// writes every format (KIF, KI2, CSA, SFEN/USI, PGN).

import { ApiError, importFile, importText, recordUrl, type GameState } from './api';
import type { VariantId } from './variants';

/** The formats the server can write for each game (docs/API.md). */
export const SAVE_FORMATS: Record<VariantId, [string, string][]> = {
  spear: [
    ['kifu', 'KIF (UTF-8, .kifu)'],
    ['kif', 'KIF (Shift_JIS, .kif)'],
    ['usi', 'SFEN / USI'],
  ],
  minishogi: [
    ['kifu', 'KIF (UTF-8, .kifu)'],
    ['kif', 'KIF (Shift_JIS, .kif)'],
    ['usi', 'SFEN / USI'],
  ],
  shogi: [
    ['kifu', 'KIF (UTF-8, .kifu)'],
    ['kif', 'KIF (Shift_JIS, .kif)'],
    ['csa', 'CSA'],
    ['usi', 'SFEN / USI'],
  ],
  pawns: [
    ['pgn', 'PGN'],
    ['usi', 'FEN / UCI'],
  ],
};

export function fillSaveFormats(select: HTMLSelectElement, variant: VariantId): void {
  const previous = select.value;
  select.textContent = '';
  for (const [value, label] of SAVE_FORMATS[variant]) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    select.appendChild(option);
  }
  if (SAVE_FORMATS[variant].some(([value]) => value === previous)) select.value = previous;
}

/** Opens pasted text. A bare USI `startpos` line names no game: the chosen one is used. */
export function openText(text: string, format: string, variant: string, chosenGame: VariantId): Promise<GameState> {
  const startpos = /^\s*(position\s+)?startpos\b/.test(text);
  return importText(text, format || undefined, variant || (startpos ? chosenGame : undefined));
}

export function openFile(file: File, format: string, variant: string): Promise<GameState> {
  return importFile(file, file.name, format || undefined, variant || undefined);
}

/** Downloads the game's record under the name the server gives it; resolves to that name. */
export async function save(id: string, format: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(recordUrl(id, format));
  } catch {
    throw new ApiError('The server cannot be reached. Is `koma serve` still running?', 0);
  }
  if (!response.ok) {
    let message = `The server answered ${response.status}.`;
    try {
      message = ((await response.json()) as { error?: string }).error ?? message;
    } catch {
      // Keep the status line.
    }
    throw new ApiError(message, response.status);
  }
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `koma-${id}.${format}`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
