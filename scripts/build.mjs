#!/usr/bin/env node
// `npm run build`: compiles src/ to dist/ with tsc (tsconfig.build.json) and the dashboard
// (web/) to dist/web with Vite; `--if-stale` builds
// only when a source is newer than the last build, which is what `npm start` runs first (as
// `prestart`), so an unchanged start costs a directory walk, not a compile. `npm ci` builds
// too (`prepare`, with `--prepare`: an install without dev dependencies, and so without
// TypeScript, skips the build instead of failing).
//
// The output is written to a temporary folder and swapped in whole, under a lock, so a
// process starting from dist/ (a test, a second `npm start`) never sees half a build and two
// builders never interleave. A type error fails the build and leaves the previous dist/ as is.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(root, 'dist');
/** Written last; its mtime is the moment the build read its inputs. */
const STAMP = path.join(DIST, '.build-stamp');
const LOCK = path.join(root, '.build.lock');
const INPUTS = ['src', 'web', 'tsconfig.json', 'tsconfig.build.json'];

/** Newest mtime among the inputs, folders included (a deleted file changes its folder's mtime). */
function newestInput() {
  let newest = 0;
  const visit = (p) => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    newest = Math.max(newest, st.mtimeMs);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
  };
  for (const input of INPUTS) visit(path.join(root, input));
  return newest;
}

function isStale() {
  const stamp = fs.statSync(STAMP, { throwIfNoEntry: false });
  return !stamp || newestInput() > stamp.mtimeMs;
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** mkdir is atomic: the builder that creates the folder holds the lock; a lock older than 5 min is a dead builder's. */
function withLock(fn) {
  for (let waited = 0; ; waited += 200) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const st = fs.statSync(LOCK, { throwIfNoEntry: false });
      if (st && Date.now() - st.mtimeMs > 5 * 60_000) fs.rmSync(LOCK, { recursive: true, force: true });
      if (waited === 0) console.error('build: waiting for another build to finish …');
      sleep(200);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

const prepare = process.argv.includes('--prepare');

function tscPath() {
  try {
    return createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    const why = 'TypeScript is not installed (an install without dev dependencies?)';
    if (prepare) {
      console.error(`build: skipped, ${why}; dist/ must come with the install`);
      process.exit(0);
    }
    console.error(`build: ${why}. Run \`npm ci\`, then \`npm run build\`.`);
    process.exit(1);
  }
}

function viteBin() {
  try {
    return path.join(path.dirname(createRequire(path.join(root, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  } catch {
    return null;
  }
}

function build() {
  const started = Date.now();
  const tmp = path.join(root, `dist.tmp-${process.pid}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [tscPath(), '-p', 'tsconfig.build.json', '--outDir', tmp, '--noEmitOnError'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (tsc.status !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    console.error(`build: tsc failed (exit ${tsc.status ?? tsc.signal}); dist/ left as it was`);
    process.exit(1);
  }
  // The dashboard: Vite bundles web/ into dist/web (served at `/` by src/dashboard/serve.ts).
  const vite = viteBin();
  if (vite) {
    const web = spawnSync(
      process.execPath,
      [vite, 'build', '--config', path.join(root, 'web', 'vite.config.ts'), '--outDir', path.join(tmp, 'web'), '--emptyOutDir', '--logLevel', 'warn'],
      { cwd: root, stdio: 'inherit' },
    );
    if (web.status !== 0) {
      fs.rmSync(tmp, { recursive: true, force: true });
      console.error(`build: the dashboard's Vite build failed (exit ${web.status ?? web.signal}); dist/ left as it was`);
      process.exit(1);
    }
  } else {
    console.error('build: Vite is not installed (an install without dev dependencies?): the dashboard is not built');
  }
  fs.writeFileSync(path.join(tmp, '.build-stamp'), `${new Date(started).toISOString()} ${process.version}\n`);
  // The stamp carries the time the inputs were read: an edit made during the compile counts as newer.
  fs.utimesSync(path.join(tmp, '.build-stamp'), started / 1000, started / 1000);
  const old = path.join(root, `dist.old-${process.pid}`);
  if (fs.existsSync(DIST)) fs.renameSync(DIST, old);
  fs.renameSync(tmp, DIST);
  fs.rmSync(old, { recursive: true, force: true });
  console.error(`build: dist/ compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const ifStale = process.argv.includes('--if-stale');
if (!ifStale || isStale()) {
  withLock(() => {
    // Checked again under the lock: the builder we waited for may have built these very sources.
    if (!ifStale || isStale()) build();
  });
}
