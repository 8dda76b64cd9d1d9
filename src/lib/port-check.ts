import net from 'node:net';

// A second `npm start` on a busy port used to create a new store, print a new secret, and
// only then die on EADDRINUSE with a stack trace. The port is now tried first, before
// anything is created, and a busy port is said plainly.

/** Why `port` on `host` cannot be listened on, as a sentence for an operator, or null when it can (port 0: HOST alone is checked). */
export async function portProblem(port: number, host: string): Promise<string | null> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(listenProblem(err, port, host)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}

/** The operator's sentence for a listen error, or null when it is not about the address. */
export function listenProblem(err: NodeJS.ErrnoException, port: number, host: string): string | null {
  switch (err.code) {
    case 'EADDRINUSE':
      return `Port ${port} is already in use on ${host}: is Sightline already running? Set PORT to another port.`;
    case 'EACCES':
      return `Port ${port} on ${host} needs privileges this process does not have: set PORT to 1024 or above.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `HOST ${host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0.`;
    default:
      return null;
  }
}
