import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordReset, resetUrl } from '../../src/modules/team/passwords.js';
import { createAccount, createProject, type Account } from '../helpers.js';
import { type BrowserApp, browserTestsOff, newPage, signIn, startBrowserApp } from './harness.js';

// Teams in a real browser (issue 17): an admin invites a viewer from the Members page, the
// viewer opens the link, accepts, signs in, sees the project and cannot write; the admin
// removes them and their open session ends; the Audit page shows each step with its actor.

describe.skipIf(browserTestsOff)('teams in Chromium', () => {
  let b: BrowserApp;
  let admin: Account;
  let projectId: string;

  beforeAll(async () => {
    b = await startBrowserApp();
    admin = await createAccount(b.t.app);
    projectId = await createProject(b.t.app, admin.key, { brand_name: 'Teamwork Tools', brand_url: 'https://teamwork-tools.com' });
  }, 120_000);
  afterAll(async () => b?.stop());

  it('invite, accept, read-only viewer, removal ends the session, audit trail', async () => {
    const viewerEmail = `viewer-${Date.now()}@example.com`;
    const viewerPassword = 'viewer-browser-password';

    // The admin invites a viewer and copies the link.
    const adm = await newPage(b);
    await signIn(adm.page, admin.email, admin.password, { fresh: true });
    await adm.page.getByRole('link', { name: 'Team', exact: true }).click();
    await adm.page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    const inviteForm = adm.page.getByRole('form', { name: 'Invite a person' });
    await inviteForm.getByLabel('Email').fill(viewerEmail);
    await inviteForm.getByLabel('Role').selectOption('viewer');
    await inviteForm.getByRole('button', { name: 'Invite' }).click();
    const link = await adm.page.locator('[data-invitation-link]').inputValue();
    expect(link).toMatch(new RegExp(`^${b.base}/accept-invitation#sli_[0-9A-Za-z]{32}$`));
    await adm.page.locator(`[data-invitation="${viewerEmail}"]`).waitFor();

    // The viewer accepts in their own browser, signs in, sees the project.
    const vw = await newPage(b);
    await vw.page.goto(link);
    await vw.page.getByLabel('Choose a password').fill(viewerPassword);
    await vw.page.getByRole('button', { name: 'Accept' }).click();
    await vw.page.locator('[data-accepted]').waitFor();
    expect(await vw.page.locator('[data-accepted]').textContent()).toContain('viewer');
    await vw.page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(vw.page, viewerEmail, viewerPassword, { fresh: true });
    await expect.poll(() => vw.page.getByRole('link', { name: 'Teamwork Tools' }).count()).toBe(1);
    await vw.page.getByRole('link', { name: 'Teamwork Tools' }).click();
    await vw.page.getByRole('heading', { name: /Teamwork Tools: overview/ }).waitFor();
    expect(await vw.page.locator('[data-scope]').getAttribute('data-scope')).toBe('viewer');

    // It cannot write: the Team page offers no invitation form, the API refuses the session's writes.
    await vw.page.getByRole('link', { name: 'Team', exact: true }).click();
    await vw.page.locator(`[data-member="${admin.email}"]`).waitFor();
    expect(await vw.page.getByRole('form', { name: 'Invite a person' }).count()).toBe(0);
    expect(await vw.page.getByRole('link', { name: 'Audit' }).count()).toBe(0);
    const write = await vw.page.evaluate(async (id) => {
      const s = await (await fetch('/v1/session')).json();
      const r = await fetch(`/v1/projects/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-csrf-token': s.data.csrf_token },
        body: JSON.stringify({ name: 'Renamed by a viewer' }),
      });
      return { status: r.status, body: await r.json() };
    }, projectId);
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('read_only_key');

    // The admin removes the viewer; the viewer's open session ends at once.
    await adm.page.reload();
    const row = adm.page.locator(`[data-member="${viewerEmail}"]`);
    await row.waitFor();
    expect(await row.getByLabel(`Role of ${viewerEmail}`).inputValue()).toBe('viewer');
    // The only admin cannot demote themself: the 409's text shows and the select goes back to admin.
    const own = adm.page.getByLabel(`Role of ${admin.email}`);
    await own.selectOption('viewer');
    await adm.page.getByText('The last admin of a team cannot be demoted; make another member admin first').waitFor();
    await expect.poll(() => own.inputValue()).toBe('admin');
    adm.page.removeAllListeners('dialog');
    adm.page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => adm.page.locator(`[data-member="${viewerEmail}"]`).count()).toBe(0);
    const after = await vw.page.evaluate(async () => (await fetch('/v1/projects')).status);
    expect(after).toBe(401);
    await vw.page.reload();
    await vw.page.getByRole('button', { name: 'Sign in' }).waitFor();

    // The audit page shows each step with the right actor.
    await adm.page.getByRole('link', { name: 'Audit' }).click();
    await adm.page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await adm.page.locator('[data-table="audit"]').waitFor();
    const actorOf = async (action: string) => adm.page.locator(`[data-action="${action}"] td:nth-child(2)`).allTextContents();
    expect(await actorOf('invitation.create')).toEqual([admin.email]);
    expect(await actorOf('invitation.accept')).toEqual([viewerEmail]);
    expect(await actorOf('session.create')).toEqual(expect.arrayContaining([admin.email, viewerEmail]));
    expect(await actorOf('member.remove')).toEqual([admin.email]);
    // Filtered by the viewer: only their own entries.
    await adm.page.getByLabel('Actor').fill(viewerEmail);
    await adm.page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => adm.page.url()).toContain('actor=');
    await expect.poll(async () => new Set(await adm.page.locator('[data-table="audit"] tbody td:nth-child(2)').allTextContents())).toEqual(new Set([viewerEmail]));

    expect(adm.errors).toEqual([]);
    expect(vw.errors).toEqual([]);
    await adm.context.close();
    await vw.context.close();
  }, 120_000);

  it("sets a new password on the page an operator's reset link opens, once", async () => {
    const acct = await createAccount(b.t.app);
    const { token } = await createPasswordReset(b.t.runtime.ctx, acct.email);
    const { page, context, errors } = await newPage(b);
    await page.goto(resetUrl(b.base, token));
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.locator('input[name="password"]').fill('reset-in-browser-password');
    await page.locator('input[name="again"]').fill('reset-in-browser-password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.locator('[data-password-set]').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, acct.email, 'reset-in-browser-password', { fresh: true });
    // The link is spent: opening it again and submitting says so.
    await page.goto(resetUrl(b.base, token));
    await page.locator('input[name="password"]').fill('another-browser-password');
    await page.locator('input[name="again"]').fill('another-browser-password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/invalid, already used or expired/);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
