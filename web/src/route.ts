// The game shown is named in the address, `#/game/<id>`, so that a reload or
// a bookmark shows the same game.

const PATTERN = /^#\/game\/([0-9a-f]{16})$/;

export function gameIdFromUrl(): string | undefined {
  return PATTERN.exec(location.hash)?.[1];
}

export function putGameIdInUrl(id: string): void {
  const hash = `#/game/${id}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}
