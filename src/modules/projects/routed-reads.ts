import type { RequestContext } from '../../context.js';
import { requireProject } from './service.js';

/**
 * The caller's context with its analytics reads of one project routed (`ctx.reads`): to the
 * read replica when it has replayed the project's latest change, so the caller sees what it
 * just wrote, else to the primary (ReadRouter in src/store/types.ts, docs/replicas.md).
 * The ownership check comes first, on the primary. Without a replica, the context as it is.
 */
export async function withProjectReads<C extends RequestContext>(ctx: C, projectId: string): Promise<C> {
  if (!ctx.readRouter.replicated) return ctx;
  await requireProject(ctx, projectId);
  const version = await ctx.readRouter.version(projectId);
  return { ...ctx, reads: await ctx.readRouter.readerAt(projectId, version) };
}
