import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { browsableBase, startupBanner, storeLabel } from './banner.js';

// The first-start banner (issue 11): where to go, the store, live and simulated engines and
// how to make one live, and a warning when private URLs are allowed.

describe('startupBanner', () => {
  it('an embedded start without keys: localhost URLs, every engine simulated, how to set a key', () => {
    const text = startupBanner(loadConfig({ DATA_DIR: '/srv/sightline-data' }), 'http://0.0.0.0:8080');
    expect(text).toContain('API        http://localhost:8080/v1');
    expect(text).toContain('Docs       http://localhost:8080/docs');
    expect(text).toContain('Dashboard  http://localhost:8080/\n');
    expect(text).toContain('Store      embedded PostgreSQL (PGlite) in /srv/sightline-data');
    expect(text).toContain('live: none');
    expect(text).toContain('simulated: chatgpt, perplexity, google_ai_overview, gemini, claude');
    expect(text).toMatch(/to ask a real engine, set its key: OPENAI_API_KEY, PERPLEXITY_API_KEY, SERPAPI_API_KEY/);
    expect(text).not.toContain('ALLOW_PRIVATE_URLS');
  });

  it('keys make engines live; private URLs are called out; the database password never shows', () => {
    const config = loadConfig({
      OPENAI_API_KEY: 'sk-test-not-shown',
      ALLOW_PRIVATE_URLS: 'true',
      DATABASE_URL: 'postgres://app:hunter2-secret@db.internal:5433/sightline',
      SECRET_KEY: 'a-secret-key-of-16-or-more',
    });
    const text = startupBanner(config, 'http://127.0.0.1:9000');
    expect(text).toContain('live: chatgpt');
    expect(text).toContain('simulated: perplexity, google_ai_overview, gemini, claude');
    expect(text).not.toMatch(/set its key: OPENAI_API_KEY/);
    expect(text).toMatch(/ALLOW_PRIVATE_URLS=true: callbacks, webhooks and page fetches may reach this machine/);
    expect(text).toContain('Store      PostgreSQL at db.internal:5433/sightline');
    expect(text).not.toMatch(/hunter2|sk-test/);
  });

  it('PROVIDERS_MODE=simulated says so instead of asking for keys', () => {
    const text = startupBanner(loadConfig({ PROVIDERS_MODE: 'simulated', OPENAI_API_KEY: 'sk-x' }), 'http://[::]:8080');
    expect(text).toContain('PROVIDERS_MODE=simulated: every engine is simulated');
    expect(text).toContain('http://localhost:8080/v1');
  });

  it('helpers: a wildcard listen address becomes localhost; a bad DATABASE_URL is not echoed', () => {
    expect(browsableBase('http://0.0.0.0:8080')).toBe('http://localhost:8080');
    expect(browsableBase('http://10.1.2.3:8080')).toBe('http://10.1.2.3:8080');
    expect(storeLabel({ databaseUrl: 'postgres://x:y@[bad', dataDir: '.' })).toBe('PostgreSQL (DATABASE_URL)');
  });

  it('names the plan new teams get and how to change it; where the operator token is', () => {
    const plain = startupBanner(loadConfig({}), 'http://0.0.0.0:8080');
    expect(plain).toContain('new teams get skip_trial (10 credits a month; set SIGNUP_PLAN to change it)');
    expect(plain).toContain('npm run admin -- plan <email|team_id> <plan>');
    expect(plain).toContain('Operator   off: set ADMIN_TOKEN');
    const pro = startupBanner({ ...loadConfig({ SIGNUP_PLAN: 'pro' }), adminTokenFile: '/srv/data/admin.token', adminToken: 'x'.repeat(20) }, 'http://0.0.0.0:8080');
    expect(pro).toContain('new teams get pro (500 credits a month');
    expect(pro).toContain('Bearer <token in /srv/data/admin.token>');
    expect(pro).not.toContain('x'.repeat(20));
    expect(() => loadConfig({ SIGNUP_PLAN: 'platinum' })).toThrow(/SIGNUP_PLAN: must be one of skip_trial, basic, pro, enterprise/);
  });

  it('says who reads the answers: the lexicon, and the analysis model when one is set (never its key)', () => {
    expect(startupBanner(loadConfig({}), 'http://0.0.0.0:8080')).toContain('Analysis   lexicon (set ANALYSIS_MODEL for a model to judge the sentiment)');
    const text = startupBanner(loadConfig({ ANALYSIS_MODEL: 'openai:gpt-4.1-mini', ANALYSIS_API_KEY: 'sk-analysis-not-shown' }), 'http://0.0.0.0:8080');
    expect(text).toContain('Analysis   lexicon, sentiment judged by openai:gpt-4.1-mini (ANALYSIS_MODEL)');
    expect(text).not.toContain('sk-analysis');
  });
});
