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
