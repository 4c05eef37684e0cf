// The server's HTTP API (docs/API.md): each call answers with the game's
// whole state, or throws an ApiError with the server's sentence.

import { ApiError, type EngineInfo, type GameState, type MateFound, type NewGameOptions } from './api';
import type { VariantId } from './variants';

async function call<T = GameState>(method: string, path: string, body?: unknown, raw?: { bytes: Blob }): Promise<T> {
  const init: RequestInit = { method, headers: {} };
  if (raw) {
    init.body = raw.bytes;
    (init.headers as Record<string, string>)['Content-Type'] = 'application/octet-stream';
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError('The server cannot be reached. Is `koma serve` still running?', 0, undefined, 'unreachable');
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ApiError(`The server answered ${response.status} without JSON.`, response.status, undefined, 'not-json');
  }
  if (!response.ok) {
    const error = json as { error?: string; state?: GameState; code?: string };
    throw new ApiError(error.error || `The server answered ${response.status}.`, response.status, error.state, error.code ?? (error.error ? undefined : 'status'));
  }
  return json as T;
}

/** Creates a game; the answer carries the seat tokens of its human sides. */
export const newGame = (variant: VariantId, options: NewGameOptions): Promise<GameState> =>
  call('POST', '/api/games', { variant, ...options });

export const getGame = (id: string): Promise<GameState> => call('GET', `/api/games/${encodeURIComponent(id)}`);

/** Changes carry the seat token of the side acting (none: the server refuses, this page only watches). */
export const playMove = (id: string, move: string, ply: number, token?: string): Promise<GameState> =>
  call('POST', `/api/games/${encodeURIComponent(id)}/moves`, { move, ply, token });

/** Takes back (local game) or asks, accepts or declines a takeback (shared game). */
export const undo = (id: string, ply: number, token?: string, decline = false): Promise<GameState> =>
  call('POST', `/api/games/${encodeURIComponent(id)}/undo`, decline ? { ply, token, decline } : { ply, token });

/** The token's side resigns. */
export const resign = (id: string, ply: number, token?: string): Promise<GameState> =>
  call('POST', `/api/games/${encodeURIComponent(id)}/resign`, { ply, token });

/** The side to move declares impasse (shogi). */
export const declare = (id: string, ply: number, token?: string): Promise<GameState> =>
  call('POST', `/api/games/${encodeURIComponent(id)}/declare`, { ply, token });

/**
 * Asks for a rematch of a finished game (at one screen: made at once), or
 * accepts the other player's offer, or with `decline` declines it or
 * cancels one's own. The answer is the finished game while an offer waits,
 * else the new game with this seat's tokens in it.
 */
export const rematch = (id: string, token?: string, decline = false): Promise<GameState> =>
  call('POST', `/api/games/${encodeURIComponent(id)}/rematch`, decline ? { token, decline } : { token });

/** The record's details a player edited (docs/API.md): each field given replaces the game's. */
export const editDetails = (id: string, token: string | undefined, details: Record<string, string>): Promise<GameState> =>
  call('POST', `/api/games/${encodeURIComponent(id)}/details`, { token, ...details });

/** Opens pasted text; `format` and `variant` may be left to the server. */
export const importText = (text: string, format?: string, variant?: string): Promise<GameState> => {
  const body: Record<string, string> = { text };
  if (format) body.format = format;
  if (variant) body.variant = variant;
  return call('POST', '/api/games/import', body);
};

/** Opens a file's raw bytes (the server decodes Shift_JIS and EUC-JP itself). */
export const importFile = (file: Blob, filename: string, format?: string, variant?: string): Promise<GameState> => {
  const query = new URLSearchParams({ filename });
  if (format) query.set('format', format);
  if (variant) query.set('variant', variant);
  return call('POST', `/api/games/import?${query}`, undefined, { bytes: file });
};

/** Mate search on the position after move `ply` (finished games and games between people here only). */
/** Mate search by Koma's solver, or by the registered engine `engine`. */
export const findMate = (id: string, ply: number, seconds: number, engine?: string): Promise<MateFound> =>
  call<MateFound>(
    'GET',
    `/api/games/${encodeURIComponent(id)}/mate?ply=${ply}&seconds=${seconds}${engine ? `&engine=${encodeURIComponent(engine)}` : ''}`,
  );

/** The engines the server analyses with: Koma's own first, then those registered with `koma serve --engine`. */
export const engines = async (): Promise<EngineInfo[]> => (await call<{ engines: EngineInfo[] }>('GET', '/api/engines')).engines;

export const recordUrl = (id: string, format: string): string =>
  `/api/games/${encodeURIComponent(id)}/record?format=${encodeURIComponent(format)}`;


/** Opens pasted text. A bare USI `startpos` line names no game: the chosen one is used. */
export function openText(text: string, format: string, variant: string, chosenGame: VariantId): Promise<GameState> {
  const startpos = /^\s*(position\s+)?startpos\b/.test(text);
  return importText(text, format || undefined, variant || (startpos ? chosenGame : undefined));
}

/** Opens a record file; `format` and `variant` empty leave them to the server. */
export function openFile(file: File, format: string, variant: string): Promise<GameState> {
  return importFile(file, file.name, format || undefined, variant || undefined);
}

/** Downloads the game's record under the name the server gives it; resolves to that name. */
export async function saveRecord(id: string, format: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(recordUrl(id, format));
  } catch {
    throw new ApiError('The server cannot be reached. Is `koma serve` still running?', 0, undefined, 'unreachable');
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
  // The download is the browser's: a link to the record's bytes, clicked.
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

/** What the state asks of the server (the module itself, or a stand-in in the unit tests). */
export interface Server {
  newGame: typeof newGame;
  getGame: typeof getGame;
  playMove: typeof playMove;
  undo: typeof undo;
  resign: typeof resign;
  declare: typeof declare;
  rematch: typeof rematch;
  editDetails: typeof editDetails;
  openText: typeof openText;
  openFile: typeof openFile;
  saveRecord: typeof saveRecord;
  findMate: typeof findMate;
}
