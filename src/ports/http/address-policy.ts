import { isIP } from 'node:net';

// Which destinations an outbound request may reach (docs/webhooks.md). The check runs
// on the resolved address at connect time, so a public name that resolves to a private
// address is refused as well as a private literal.

/** Cloud metadata endpoints: refused even when private addresses are allowed. */
const METADATA_HOSTS = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
]);
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2:0:0:0:0:0:254']);

/** [first address as a 32-bit number, prefix length, what it is] */
const BLOCKED_V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

function v4ToInt(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

const V4_RULES = BLOCKED_V4.map(([base, prefix, label]) => {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { base: v4ToInt(base) & mask, mask, label };
});

function v4Reason(address: string): string | null {
  const n = v4ToInt(address);
  for (const rule of V4_RULES) if (((n & rule.mask) >>> 0) === rule.base >>> 0) return rule.label;
  return null;
}

/** Eight 16-bit groups of an IPv6 address (zone id dropped, embedded dotted IPv4 read). */
export function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const n = v4ToInt(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

function groupsToV4(hi: number, lo: number): string {
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

function v6Reason(address: string): string | null {
  const g = ipv6Groups(address);
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroPrefix(8)) return 'unspecified';
  if (zeroPrefix(7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) and 64:ff9b::a.b.c.d (NAT64) reach the embedded IPv4 address.
  if (zeroPrefix(5) && g[5] === 0xffff) return v4Reason(groupsToV4(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Reason(groupsToV4(g[6], g[7]));
  if (zeroPrefix(6)) return 'IPv4-compatible (deprecated)';
  if (g[0] === 0x2002) return v4Reason(groupsToV4(g[1], g[2])); // 6to4 embeds the IPv4 address
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique local (private)';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'site-local (deprecated)';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'documentation';
  if (g[0] === 0x2001 && g[1] === 0) return 'Teredo';
  // Only global unicast (2000::/3) is routable on the public internet.
  if ((g[0] & 0xe000) !== 0x2000) return 'reserved';
  return null;
}

/** Lower-case host name without brackets or a trailing dot. */
export function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

export function isMetadataHost(host: string): boolean {
  return METADATA_HOSTS.has(normalizeHost(host));
}

function canonical(address: string): string {
  return isIP(address) === 6 ? ipv6Groups(address).map((x) => x.toString(16)).join(':') : address;
}

/**
 * Why this IP address may not be reached, or null when it may. Metadata addresses are
 * refused always; private, loopback, link-local and reserved ones unless `allowPrivate`.
 */
export function blockedAddressReason(address: string, allowPrivate: boolean): string | null {
  const family = isIP(normalizeHost(address));
  if (family === 0) return 'not an IP address';
  const ip = normalizeHost(address);
  if (METADATA_ADDRESSES.has(canonical(ip))) return 'cloud metadata endpoint';
  if (family === 6) {
    const g = ipv6Groups(ip);
    if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff && METADATA_ADDRESSES.has(groupsToV4(g[6], g[7]))) {
      return 'cloud metadata endpoint';
    }
  }
  if (allowPrivate) return null;
  return family === 4 ? v4Reason(ip) : v6Reason(ip);
}
