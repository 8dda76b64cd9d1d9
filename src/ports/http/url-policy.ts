import { promises as fs } from 'node:fs';
import { isIP } from 'node:net';
import { blockedAddressReason, isMetadataHost, normalizeHost } from './address-policy.js';

// The check a callback or webhook URL gets when it is given (POST /account/projects,
// POST /webhooks): what the connect-time guard (safe-request.ts) would certainly refuse,
// decided without DNS, with the same address policy. A name that DNS resolves to a private
// address is still caught at connect time; this only spares the user a URL that can never
// be delivered to, which used to be accepted and then dropped in silence.

export const HOSTS_FILE = '/etc/hosts';

/** Addresses each name (lower case, no trailing dot) has in a hosts file; empty when it cannot be read. */
export async function readHostsFile(path = HOSTS_FILE): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch {
    return names;
  }
  for (const line of text.split('\n')) {
    const [address, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!address || !isIP(address)) continue;
    for (const alias of aliases) {
      const name = normalizeHost(alias);
      names.set(name, [...(names.get(name) ?? []), address]);
    }
  }
  return names;
}

/**
 * Why deliveries to `url` would be refused (`127.0.0.1: loopback`), or null when only DNS can tell. The URL parser has already turned
 * the disguises of an IPv4 address (`0x7f000001`, `127.1`, `2130706433`, `0177.0.0.1`,
 * a trailing dot) into dotted form and IPv6 into its canonical text; IPv4-mapped and
 * NAT64 IPv6 are judged by the IPv4 address inside.
 */
export async function refusedUrlReason(url: string, allowPrivate: boolean, hostsFile = HOSTS_FILE): Promise<string | null> {
  let host: string;
  try {
    host = normalizeHost(new URL(url).hostname);
  } catch {
    return null; // not a URL at all: the schema's message covers it
  }
  if (isMetadataHost(host)) return `${host}: cloud metadata endpoint`;
  if (isIP(host)) {
    const reason = blockedAddressReason(host, allowPrivate);
    return reason ? `${isIP(host) === 6 ? `[${host}]` : host}: ${reason}` : null;
  }
  // RFC 6761: localhost and every name under it are loopback, whatever DNS says.
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) return `${host}: loopback`;
  for (const address of (await readHostsFile(hostsFile)).get(host) ?? []) {
    const reason = blockedAddressReason(address, allowPrivate);
    // The address itself is not shown: the server's hosts file is none of the caller's business.
    if (reason) return `${host}: ${reason}, in this server's hosts file`;
  }
  return null;
}
