import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHostsFile, refusedUrlReason } from './url-policy.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hosts-'));
const hosts = path.join(dir, 'hosts');
writeFileSync(
  hosts,
  [
    '# a comment line',
    '127.0.0.1   localhost build-box   # trailing comment',
    '10.1.2.3    db.internal  Cache.Internal.',
    '::1         ip6-loopback',
    'fe80::1%lo0 linklocal-name',
    '93.184.216.34 public-mirror',
    'not-an-address some-name',
    '',
  ].join('\n'),
);

describe('readHostsFile', () => {
  it('maps each name (lower case, no trailing dot) to its addresses, skipping comments and bad lines', async () => {
    const map = await readHostsFile(hosts);
    expect(map.get('build-box')).toEqual(['127.0.0.1']);
    expect(map.get('cache.internal')).toEqual(['10.1.2.3']);
    expect(map.get('ip6-loopback')).toEqual(['::1']);
    expect(map.has('some-name')).toBe(false);
  });

  it('an unreadable file is an empty map, not an error', async () => {
    expect((await readHostsFile(path.join(dir, 'missing'))).size).toBe(0);
  });
});

describe('refusedUrlReason', () => {
  it.each([
    ['https://build-box/x', "build-box: loopback, in this server's hosts file"],
    ['https://Cache.Internal./x', "cache.internal: private, in this server's hosts file"],
    ['https://ip6-loopback/x', "ip6-loopback: loopback, in this server's hosts file"],
    ['https://0x0a.1.2.3/x', '10.1.2.3: private'],
    ['https://[::ffff:10.1.2.3]/x', '[::ffff:a01:203]: private'],
    ['https://169.254.169.254/x', '169.254.169.254: cloud metadata endpoint'],
    ['https://instance-data./x', 'instance-data: cloud metadata endpoint'],
  ])('%s → %s', async (url, reason) => {
    expect(await refusedUrlReason(url, false, hosts)).toBe(reason);
  });

  it.each(['https://public-mirror/x', 'https://hooks.acme.com/x', 'https://93.184.216.34/x', 'not a url'])('%s → null (public, or left to DNS)', async (url) => {
    expect(await refusedUrlReason(url, false, hosts)).toBeNull();
  });

  it('with private URLs allowed only metadata endpoints are refused', async () => {
    expect(await refusedUrlReason('https://build-box/x', true, hosts)).toBeNull();
    expect(await refusedUrlReason('https://localhost/x', true, hosts)).toBeNull();
    expect(await refusedUrlReason('https://metadata.goog/x', true, hosts)).toBe('metadata.goog: cloud metadata endpoint');
  });
});
