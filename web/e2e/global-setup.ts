// Once per run: checks that the browser and the binary are there, starts
// `koma serve --port 0 --memory --review-nodes 2000 --requests-per-second
// 1000 --engine koma-usi=KOMA usi --analysis-engines 2` (a free port, no
// database, quick reviews, no rate limit to speak of, Koma's engine
// registered as an external one, two analyses at once) and hands its address to the tests through the environment (the
// workers inherit it).
// The function it returns stops the server when the run ends.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM, URL_VARIABLE, komaBinary } from './env';

function startServer(koma: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolveStart, rejectStart) => {
    // A small review budget: the tests check what a review shows, not its
    // strength. KOMA_REVIEW_NODES sets another (for docs' pictures, with a
    // release build: KOMA_BIN=../target/release/koma KOMA_REVIEW_NODES=150000).
    const nodes = process.env.KOMA_REVIEW_NODES ?? '2000';
    // Every page of the run comes from 127.0.0.1, one client to the server,
    // opening pages far faster than a person: the per-client rate limit
    // (docs/API.md, Limits; tested in crates/server/tests) is raised.
    // Koma's own engine is also registered as an external USI engine
    // (engines.spec.ts), so that the choice of engines has two to offer
    // in shogi without anything else installed; two analyses may think at
    // once, so that two engines side by side both run on a 2-core machine
    // (whose default is one).
    const args = ['serve', '--port', '0', '--memory', '--review-nodes', nodes, '--requests-per-second', '1000', '--engine', `koma-usi=${koma} usi`, '--analysis-engines', '2'];
    const child = spawn(koma, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffer = '';
    const timer = setTimeout(() => rejectStart(new Error('koma serve printed no address within 20 s')), 20_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      buffer += chunk;
      const match = /Koma is serving (http:\/\/\S+)/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        resolveStart({ child, url: match[1].replace(/\/?$/, '/') });
      }
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => process.stderr.write(`[koma] ${chunk}`));
    child.on('error', (error) => {
      clearTimeout(timer);
      rejectStart(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      rejectStart(new Error(`koma serve exited with ${code} before serving`));
    });
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM))
    throw new Error(`The browser tests need Debian's Chromium at ${CHROMIUM}: apt-get install chromium`);
  const koma = komaBinary();
  if (!existsSync(koma))
    throw new Error(`No koma binary at ${koma}: build it first (cargo build -p koma) or set KOMA_BIN=PATH.`);
  const { child, url } = await startServer(koma);
  process.env[URL_VARIABLE] = url;
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  };
}
