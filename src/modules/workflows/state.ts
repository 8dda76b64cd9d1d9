import type { Tx } from '../../store/index.js';

export const STEPS = ['outline', 'draft', 'final'] as const;
export type Step = (typeof STEPS)[number];
export type WorkflowStatus = 'running' | 'awaiting_approval' | 'completed' | 'failed' | 'rejected';

export const CHECKPOINT_OPTIONS = [
  { action: 'approve', label: 'Approve and continue' },
  { action: 'edit', label: 'Replace the text with your edit and continue' },
  { action: 'regenerate', label: 'Write this step again (with feedback)' },
  { action: 'reject', label: 'Reject and stop the workflow' },
];

export interface WorkflowRow {
  id: string;
  action_id: string;
  project_id: string;
  team_id: string;
  status: WorkflowStatus;
  step: Step;
  checkpoint: Step | null;
  outline: string | null;
  draft: string | null;
  final: string | null;
  title: string | null;
  feedback: string | null;
  version: number;
  result: { title: string; content: string } | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, action_id, project_id, team_id, status, step, checkpoint, outline, draft, final, title, feedback,
                 version, result, error, created_at, updated_at`;

export async function loadWorkflow(tx: Tx, id: string): Promise<WorkflowRow | null> {
  const { rows } = await tx.query<WorkflowRow>(`select ${COLUMNS} from workflows where id = $1`, [id]);
  return rows[0] ?? null;
}

export async function latestWorkflow(tx: Tx, actionId: string): Promise<WorkflowRow | null> {
  const { rows } = await tx.query<WorkflowRow>(
    `select ${COLUMNS} from workflows where action_id = $1 order by created_at desc, id desc limit 1`,
    [actionId],
  );
  return rows[0] ?? null;
}

/** The text a step wrote (after approval or edit, the approved text). */
export function stepText(w: Pick<WorkflowRow, 'outline' | 'draft' | 'final'>, step: Step): string | null {
  return w[step];
}

export const nextStep = (s: Step): Step | null => STEPS[STEPS.indexOf(s) + 1] ?? null;
