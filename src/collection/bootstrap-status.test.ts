import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../test/fakes/receiver.js';
import { client, createAccount, startTestApp, until, type TestApp } from '../../test/helpers.js';

// GET /projects/{id} tells how the bootstrap went (issue 11, defect 4): bootstrap_status,
// bootstrap_error and the callback's delivery status. The list keeps the Project shape.

let t: TestApp;
let ok: Receiver;
let down: Receiver;
beforeAll(async () => {
  ok = await startReceiver();
  down = await startReceiver({ replies: new Array(100).fill(500) });
  t = await startTestApp({ allowPrivateUrls: true, providersMode: 'simulated', webhookRetryBaseMs: 20 });
});
afterAll(async () => {
  await t?.stop();
  await Promise.all([ok?.close(), down?.close()]);
});

type Detail = { bootstrap_status: string; bootstrap_error: string | null; callback_status: string | null };

async function projectFor(webhookUrl: string) {
  const acct = await createAccount(t.app);
  const api = client(t.app, acct.key);
  // An unreachable site: the prompts are written from the name (the pipeline's fallback).
  const res = await api.post('/account/projects', { brand_name: 'Statusco', brand_url: 'http://127.0.0.1:1/', webhook_url: webhookUrl });
  expect(res.statusCode, res.body).toBe(202);
  return { api, id: res.json().data.project_id as string };
}

const detail = async (api: ReturnType<typeof client>, id: string): Promise<Detail> => (await api.get(`/projects/${id}`)).json().data;

describe('GET /projects/{id} bootstrap and callback status', () => {
  it('initializing with no callback yet, then completed with the callback delivered', async () => {
    const { api, id } = await projectFor(ok.url);
    const first = await detail(api, id);
    expect(['initializing', 'completed']).toContain(first.bootstrap_status);
    if (first.bootstrap_status === 'initializing') expect(first.callback_status).toBeNull();
    const done = await until(async () => {
      const d = await detail(api, id);
      return d.callback_status === 'delivered' ? d : null;
    }, 45_000);
    expect(done).toMatchObject({ bootstrap_status: 'completed', bootstrap_error: null, callback_status: 'delivered' });
  });

  it('a receiver that keeps failing: callback_status pending, then failed', async () => {
    const { api, id } = await projectFor(down.url);
    const done = await until(async () => {
      const d = await detail(api, id);
      return d.callback_status === 'failed' ? d : null;
    }, 45_000);
    expect(done).toMatchObject({ bootstrap_status: 'completed', bootstrap_error: null });
    expect(down.received.filter((r) => JSON.parse(r.body).project_id === id)).toHaveLength(4);
  });

  it('the list keeps the Project shape (no status fields)', async () => {
    const { api } = await projectFor(ok.url);
    const list = (await api.get('/projects')).json().data;
    expect(Object.keys(list[0]).sort()).toEqual(['brand_aliases', 'brand_name', 'created_at', 'id', 'language', 'location', 'name', 'website_url']);
  });
});
