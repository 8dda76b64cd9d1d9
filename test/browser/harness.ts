import fs from 'node:fs';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import type { Config } from '../../src/config.js';
import { STORE, startTestApp, type TestApp } from '../helpers.js';

// Browser tests: playwright-core driving Debian's Chromium (no browser download), against a
// whole service listening on a free port. They run in the embedded-store pass of `npm test`
// only (the dashboard calls the same API on both stores; the API's own suites cover both).

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const browserTestsOff = STORE !== 'pglite' || !fs.existsSync(CHROMIUM) || process.env.SKIP_BROWSER_TESTS === '1';

/** The flags that work on this machine (docs/architecture.md); Playwright adds a fresh profile folder. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface BrowserApp {
  t: TestApp;
  base: string;
  browser: Browser;
  stop(): Promise<void>;
}

/** `overrides` as for startTestApp (e.g. allowPrivateUrls for a local webhook receiver or page server). */
export async function startBrowserApp(overrides: Partial<Config> = {}): Promise<BrowserApp> {
  const t = await startTestApp(overrides);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  // The links the service writes (invitations) point at PUBLIC_URL: here, this server.
  // (the runtime holds its own copy of the config, with the operator token it resolved)
  if (overrides.publicUrl === undefined) t.config.publicUrl = t.runtime.ctx.config.publicUrl = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  return {
    t,
    base: `http://127.0.0.1:${port}`,
    browser,
    async stop() {
      await browser.close();
      await t.stop();
    },
  };
}

/** A fresh browser context (its own cookies) at the given width; page errors fail the test. */
export async function newPage(b: BrowserApp, width = 1280): Promise<{ context: BrowserContext; page: Page; errors: string[]; dialogs: string[] }> {
  const context = await b.browser.newContext({ baseURL: b.base, viewport: { width, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content.Security.Policy|Refused/i.test(m.text())) errors.push(m.text());
  });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return { context, page, errors, dialogs };
}

// Sign-in attempts are limited to 10 a minute per address, and every test here comes from
// 127.0.0.1: the form signs in once per account, later tests reuse that session's cookie.
const sessions = new Map<string, Awaited<ReturnType<BrowserContext['cookies']>>>();

export async function signIn(page: Page, email: string, password: string, opts: { fresh?: boolean } = {}): Promise<void> {
  const known = opts.fresh ? undefined : sessions.get(email);
  if (known) {
    await page.context().addCookies(known);
    await page.goto('/projects');
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    return;
  }
  await formSignIn(page, email, password);
  if (!opts.fresh) sessions.set(email, (await page.context().cookies()).filter((c) => c.name === 'sightline_session'));
}

async function formSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
}

export async function signInWithKey(page: Page, key: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Use an API key instead' }).click();
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
}
