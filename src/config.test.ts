import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseOrigins } from './config.js';

describe('MCP_ALLOWED_ORIGINS', () => {
  it('keeps origins as browsers send them and refuses anything that is not one', () => {
    expect(parseOrigins(undefined)).toEqual([]);
    expect(parseOrigins(' http://localhost:6274 , https://Agents.Example.com/ ')).toEqual(['http://localhost:6274', 'https://agents.example.com']);
    for (const bad of ['localhost:6274', 'https://a.example/path', 'ftp://a.example', 'https://a.example:443', '*', 'null']) {
      expect(() => parseOrigins(bad), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: 'https://a.example/x' })).toThrow(/MCP_ALLOWED_ORIGINS: "https:\/\/a.example\/x" is not an origin/);
    expect(loadConfig({}).mcpAllowedOrigins).toEqual([]);
  });
});

describe('PUBLIC_URL', () => {
  it('defaults to localhost on the port and drops a trailing slash', () => {
    expect(loadConfig({ PORT: '9090' }).publicUrl).toBe('http://localhost:9090');
    expect(loadConfig({ PUBLIC_URL: 'https://sightline.example.com/' }).publicUrl).toBe('https://sightline.example.com');
  });

  it('refuses a value that is not an http(s) URL', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ PUBLIC_URL: 'sightline.example.com' })).toThrow(/PUBLIC_URL/);
  });
});

describe('RETENTION_MONTHS', () => {
  it('keeps every answer unless set, takes whole months, and refuses anything else by name', () => {
    expect(loadConfig({}).retentionMonths).toBe(0);
    expect(loadConfig({ RETENTION_MONTHS: '' }).retentionMonths).toBe(0);
    expect(loadConfig({ RETENTION_MONTHS: '0' }).retentionMonths).toBe(0);
    expect(loadConfig({ RETENTION_MONTHS: '13' }).retentionMonths).toBe(13);
    for (const bad of ['-1', '1.5', 'twelve', '12m', '1201']) {
      expect(() => loadConfig({ RETENTION_MONTHS: bad }), bad).toThrow(/RETENTION_MONTHS: must be/);
    }
  });
});

describe('DATABASE_READ_URL and REPLICA_MAX_LAG_MS', () => {
  const server = { DATABASE_URL: 'postgres://app@db-primary/sightline', SECRET_KEY: 'a-secret-key-0123456789' };
  it('takes a replica of the server-mode primary, 5 s of lag by default', () => {
    const config = loadConfig({ ...server, DATABASE_READ_URL: 'postgres://app@db-replica/sightline' });
    expect(config.databaseReadUrl).toBe('postgres://app@db-replica/sightline');
    expect(config.replicaMaxLagMs).toBe(5_000);
    expect(loadConfig({ ...server, REPLICA_MAX_LAG_MS: '250' }).replicaMaxLagMs).toBe(250);
    expect(loadConfig(server).databaseReadUrl).toBeUndefined();
  });

  it('refuses a replica without a primary, the primary itself, a non-PostgreSQL URL and a lag out of range', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://app@db-replica/sightline' })).toThrow(/DATABASE_READ_URL: needs DATABASE_URL/);
    expect(() => loadConfig({ ...server, DATABASE_READ_URL: server.DATABASE_URL })).toThrow(/DATABASE_READ_URL: is DATABASE_URL itself/);
    expect(() => loadConfig({ ...server, DATABASE_READ_URL: 'mysql://db-replica/sightline' })).toThrow(/DATABASE_READ_URL/);
    for (const bad of ['0', '99', '3600001', 'soon', '1.5']) {
      expect(() => loadConfig({ ...server, REPLICA_MAX_LAG_MS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ ...server, REPLICA_MAX_LAG_MS: bad }), bad).toThrow(/REPLICA_MAX_LAG_MS/);
    }
  });
});
