// Where the browser tests find what they need: the browser, the koma binary,
// the records, and where the pictures go.

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const web = resolve(here, '..');
export const repo = resolve(web, '..');
/** The records of real games kept for the tests (KIF, KI2, CSA). */
export const records = join(repo, 'testdata', 'records');
/** The pictures docs/GUI.md shows (kept in the repository). */
export const docsShots = join(repo, 'docs', 'screenshots');

/** Debian's Chromium: the tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';
/** A fresh profile that talks to nobody but the server under test. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const VIEWPORT = { width: 1200, height: 860 };

/** The koma binary: $KOMA_BIN, else $CARGO_TARGET_DIR (or ../target), then debug/koma. */
export function komaBinary(): string {
  if (process.env.KOMA_BIN) return resolve(process.env.KOMA_BIN);
  const targetDir = process.env.CARGO_TARGET_DIR ? resolve(repo, process.env.CARGO_TARGET_DIR) : join(repo, 'target');
  return join(targetDir, 'debug', 'koma');
}

/** The variable through which global-setup.ts hands the server's address to the tests. */
export const URL_VARIABLE = 'KOMA_E2E_URL';
