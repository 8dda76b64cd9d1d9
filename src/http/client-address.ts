import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

type Trust = boolean | string[] | ((address: string, hop: number) => boolean);

/**
 * The client's address of a raw request, as Fastify's `request.ip` gives it for the same
 * trustProxy setting: for the few answers written before Fastify builds a request (the
 * router's 414), so that they are limited per address like every other answer.
 */
export function clientAddressReader(trust: Trust): (req: IncomingMessage) => string {
  if (trust === false) return (req) => req.socket.remoteAddress ?? '';
  const fn = trust === true ? () => true : typeof trust === 'function' ? trust : proxyAddr.compile(trust);
  return (req) => {
    const all = proxyAddr.all(req, fn);
    return all[all.length - 1] ?? req.socket.remoteAddress ?? '';
  };
}
