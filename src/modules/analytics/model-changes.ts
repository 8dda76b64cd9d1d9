import type { RequestContext } from '../../context.js';
import { requireProject } from '../projects/service.js';
import { modelChanges } from '../rollups/engine-models.js';
import type { Window } from './window.js';

export interface ModelChangeItem {
  provider: string;
  day: string;
  from_model: string;
  to_model: string;
}

/**
 * The days in the window on which an engine answered with another model than on its
 * previous day with answers (the model of a day: the one behind most of its answers), so a
 * chart can mark them: a jump on such a day may be the engine's doing, not the brand's.
 */
export async function projectModelChanges(ctx: RequestContext, projectId: string, w: Window): Promise<ModelChangeItem[]> {
  await requireProject(ctx, projectId);
  return modelChangeItems(ctx, projectId, w);
}

/** The same, for a caller that has already checked the project. */
export async function modelChangeItems(ctx: RequestContext, projectId: string, w: Window): Promise<ModelChangeItem[]> {
  const changes = await modelChanges(ctx.reads, projectId, w.from, w.to, w.providers ?? undefined);
  return changes.map((change) => ({ provider: change.provider, day: change.day, from_model: change.fromModel, to_model: change.toModel }));
}
