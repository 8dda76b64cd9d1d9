import { describe, expect, it } from 'vitest';
import { blockedAddressReason, ipv6Groups, isMetadataHost } from './address-policy.js';

describe('blockedAddressReason', () => {
  const refused = [
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.1.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '192.0.2.10',
    '::',
    '::1',
    '[::1]',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:192.168.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::1',
    '2001:db8::1',
    '::127.0.0.1',
  ];
  it.each(refused)('refuses %s', (ip) => {
    expect(blockedAddressReason(ip, false)).not.toBeNull();
  });

  const allowed = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1', '93.184.216.34', '2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::808:808'];
  it.each(allowed)('allows public %s', (ip) => {
    expect(blockedAddressReason(ip, false)).toBeNull();
  });

  it('lets private addresses through when allowPrivate is set', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '::1', 'fd00::1', '::ffff:127.0.0.1']) {
      expect(blockedAddressReason(ip, true)).toBeNull();
    }
  });

  it('refuses cloud metadata addresses even when allowPrivate is set', () => {
    for (const ip of ['169.254.169.254', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', 'fd00:ec2::254', '100.100.100.200']) {
      expect(blockedAddressReason(ip, true)).toBe('cloud metadata endpoint');
    }
  });

  it('names the kind of address', () => {
    expect(blockedAddressReason('127.0.0.1', false)).toBe('loopback');
    expect(blockedAddressReason('10.0.0.1', false)).toBe('private');
    expect(blockedAddressReason('169.254.3.4', false)).toBe('link-local');
    expect(blockedAddressReason('100.64.0.1', false)).toBe('carrier-grade NAT');
  });
});

describe('helpers', () => {
  it('expands IPv6 addresses', () => {
    expect(ipv6Groups('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('fe80::1:2')).toEqual([0xfe80, 0, 0, 0, 0, 0, 1, 2]);
    expect(ipv6Groups('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
  });

  it('knows metadata host names in any case, with a trailing dot', () => {
    expect(isMetadataHost('metadata.google.internal')).toBe(true);
    expect(isMetadataHost('METADATA.google.internal.')).toBe(true);
    expect(isMetadataHost('example.com')).toBe(false);
  });
});
