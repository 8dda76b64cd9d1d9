import type { ServiceContext } from '../../context.js';
import { Invalid } from '../../lib/errors.js';
import { refusedUrlReason } from '../../ports/http/url-policy.js';

/**
 * A callback or webhook URL is refused when it is given if its deliveries could never be
 * made: a private, loopback, link-local or metadata address in any notation, `localhost`,
 * or a name this server's hosts file maps to one (unless ALLOW_PRIVATE_URLS). Names left to
 * DNS are checked again at every connect (src/ports/http/safe-request.ts).
 */
export async function assertDeliverableUrl(ctx: Pick<ServiceContext, 'config'>, field: string, url: string): Promise<void> {
  const reason = await refusedUrlReason(url, ctx.config.allowPrivateUrls);
  if (reason) throw new Invalid(`${field} must point to a public address (${reason})`);
}
