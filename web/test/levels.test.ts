// The levels' worth shown beside the level (web/src/levels.ts) is the one
// docs/LEVELS.md reports: the first table of its section "The ladder" has a
// row per level and a column per game, with the Elo on Koma's scale.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LEVEL_ELO, levelElo } from '../src/levels';
import type { VariantId } from '../src/variants';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** LEVELS.md's table of levels: game → Elo by level, from its rows. */
function documented(): Partial<Record<VariantId, number[]>> {
  const text = readFileSync(join(repo, 'docs', 'LEVELS.md'), 'utf8');
  const section = text.split('\n## The ladder')[1]?.split('\n## ')[0] ?? '';
  // The section's first table: its lines up to the first that is not one.
  const lines = section.split('\n');
  const first = lines.findIndex((line) => line.startsWith('| '));
  const end = lines.findIndex((line, index) => index > first && !line.startsWith('|'));
  const rows = first < 0 ? [] : lines.slice(first, end < 0 ? undefined : end);
  const header = rows[0]?.split('|').map((cell) => cell.trim()) ?? [];
  const games = header.slice(2, -1) as VariantId[];
  const table: Partial<Record<VariantId, number[]>> = {};
  for (const row of rows.slice(2)) {
    const cells = row.split('|').map((cell) => cell.trim());
    games.forEach((game, column) => {
      const elo = cells[column + 2]?.replace(/[,\s]/g, '');
      if (elo && /^-?\d+$/.test(elo)) (table[game] ??= []).push(Number(elo));
    });
  }
  return table;
}

describe('the levels’ worth', () => {
  it('is LEVELS.md’s table', () => {
    expect(documented()).toEqual(LEVEL_ELO);
  });

  // Every level shown beat the one below (scripts/levels-table.py stops a
  // game's scale at the first that did not); a small step may round to the
  // same ten, as Spear's 17 against 16 (+7) once did from less even openings.
  it('never falls with the level, from 0 at level 1', () => {
    for (const elos of Object.values(LEVEL_ELO)) {
      expect(elos[0]).toBe(0);
      for (let i = 1; i < elos.length; i++) expect(elos[i]).toBeGreaterThanOrEqual(elos[i - 1]);
      expect(elos[elos.length - 1]).toBeGreaterThan(elos[0]);
    }
  });

  it('is unknown where not measured', () => {
    expect(levelElo('shogi', 0)).toBeUndefined();
    expect(levelElo('shogi', 21)).toBeUndefined();
    expect(levelElo('shogi', 2.5)).toBeUndefined();
  });
});
