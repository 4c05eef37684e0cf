// Builds the front end into dist/: index.html, app.js, app.css, the sound/
// voices and the rules pages with their pictures (rules.mjs).
// `node build.mjs` once; `node build.mjs --watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { copyFile, cp, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRules } from './rules.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const watch = process.argv.includes('--watch');

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
await copyFile(join(here, 'src', 'index.html'), join(dist, 'index.html'));
await copyFile(join(here, 'src', 'favicon.svg'), join(dist, 'favicon.svg'));
await cp(join(here, 'src', 'sound', 'voice'), join(dist, 'sound', 'voice'), { recursive: true });
await buildRules(join(here, '..', 'docs', 'rules'), join(dist, 'rules'));

const options = {
  entryPoints: { app: join(here, 'src', 'main.ts') },
  bundle: true,
  format: 'esm',
  target: ['es2020'],
  outdir: dist,
  minify: !watch,
  sourcemap: watch ? 'inline' : false,
  legalComments: 'none',
  logLevel: 'info',
  loader: { '.css': 'css' },
};

if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
} else {
  await esbuild.build(options);
}
