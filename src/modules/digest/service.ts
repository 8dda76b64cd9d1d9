import type { RequestContext, ServiceContext } from '../../context.js';
import { Conflict, Invalid, NotFound } from '../../lib/errors.js';
import { utcDay } from '../../lib/time.js';
import { systemContext } from '../projects/system-caller.js';
import { visibilityChartSvg, rasterize } from './chart.js';
import { projectWeek, type ProjectWeek } from './figures.js';
import { CHART_CID, renderDigest } from './render.js';

/** Projects a digest covers, oldest first: a long list would bury the first ones. */
const MAX_PROJECTS = 5;

async function teamWeeks(ctx: RequestContext, today: string): Promise<ProjectWeek[]> {
  const { rows } = await ctx.store.query<{ id: string }>(`select id from projects where team_id = $1 order by created_at, id limit $2`, [ctx.auth.teamId, MAX_PROJECTS]);
  const weeks: ProjectWeek[] = [];
  for (const p of rows) weeks.push(await projectWeek(ctx, p.id, today));
  return weeks;
}

/** The digest of the caller's team: subject, text, HTML and the chart as a PNG. */
export async function buildDigest(ctx: RequestContext, today = utcDay(ctx.clock.now())) {
  const weeks = await teamWeeks(ctx, today);
  const png = weeks.length ? rasterize(visibilityChartSvg(weeks[0].days, weeks.map((w) => ({ label: w.brand, values: w.daily })))) : null;
  const dashboardUrl = weeks.length === 1 ? `${ctx.config.publicUrl}/projects/${weeks[0].project_id}` : `${ctx.config.publicUrl}/`;
  return { ...renderDigest(weeks, dashboardUrl), png };
}

/** What the digest would be now; the chart inlined as a data: URI so a browser shows it as the mail would. */
export async function previewDigest(ctx: RequestContext) {
  const d = await buildDigest(ctx);
  const html = d.png ? d.html.replace(`cid:${CHART_CID}`, `data:image/png;base64,${d.png.toString('base64')}`) : d.html;
  return { subject: d.subject, html, text: d.text };
}

/** Sends the team's digest to its members who opted in; the chart is an inline (cid) PNG attachment. */
export async function sendTeamDigest(ctx: RequestContext) {
  const mailer = ctx.ports.mailer;
  if (!mailer) throw new Conflict('Mail is off: the operator has not set SMTP_URL and MAIL_FROM');
  const { rows } = await ctx.store.query<{ email: string }>(
    `select u.email from team_members m join users u on u.id = m.user_id where m.team_id = $1 and m.digest order by u.email`,
    [ctx.auth.teamId],
  );
  if (!rows.length) return { sent: 0, recipients: [] as string[] };
  const d = await buildDigest(ctx);
  const attachments = d.png ? [{ filename: 'visibility.png', content: d.png, contentType: 'image/png', cid: CHART_CID }] : [];
  const sent: string[] = [];
  for (const r of rows) {
    try {
      await mailer.send({ to: r.email, subject: d.subject, text: d.text, html: d.html, attachments });
      sent.push(r.email);
    } catch (err) {
      ctx.log.warn({ err, team: ctx.auth.teamId }, 'digest mail failed');
    }
  }
  return { sent: sent.length, recipients: sent };
}

/** The scheduled job (Monday 08:00 UTC): every team with an opted-in member gets its digest. */
export async function sendWeeklyDigests(ctx: ServiceContext): Promise<number> {
  if (!ctx.ports.mailer) return 0;
  const { rows } = await ctx.store.query<{ team_id: string; plan: string }>(
    `select distinct m.team_id, t.plan from team_members m join teams t on t.id = m.team_id where m.digest order by m.team_id`,
  );
  let sent = 0;
  for (const r of rows) {
    try {
      sent += (await sendTeamDigest(systemContext(ctx, r))).sent;
    } catch (err) {
      ctx.log.warn({ err, team: r.team_id }, 'weekly digest failed');
    }
  }
  return sent;
}

/** The person behind the call: the signed-in one, or the one an API key was made for. */
async function personOf(ctx: RequestContext): Promise<string | null> {
  if (ctx.auth.userId) return ctx.auth.userId;
  const { rows } = await ctx.store.query<{ user_id: string | null }>(`select user_id from api_keys where id = $1`, [ctx.auth.keyId]);
  return rows[0]?.user_id ?? null;
}

/** PATCH /team/members/me: the signed-in person (or the person a key belongs to) opts in or out. */
export async function setMyDigest(ctx: RequestContext, digest: boolean) {
  const userId = await personOf(ctx);
  if (!userId) throw new Invalid('This key belongs to no person: sign in, or use a key made by a member');
  const { rows } = await ctx.store.query<{ user_id: string; email: string; digest: boolean }>(
    `update team_members m set digest = $3 from users u
      where m.team_id = $1 and m.user_id = $2 and u.id = m.user_id returning m.user_id, u.email, m.digest`,
    [ctx.auth.teamId, userId, digest],
  );
  if (!rows[0]) throw new NotFound('You are not a member of this team');
  return { ...rows[0], mail_enabled: !!ctx.ports.mailer };
}

/** The caller's own digest setting, and whether this server sends mail at all. */
export async function getMyDigest(ctx: RequestContext) {
  const userId = await personOf(ctx);
  const mail_enabled = !!ctx.ports.mailer;
  if (!userId) return { user_id: null, email: null, digest: false, mail_enabled };
  const { rows } = await ctx.store.query<{ user_id: string; email: string; digest: boolean }>(
    `select m.user_id, u.email, m.digest from team_members m join users u on u.id = m.user_id where m.team_id = $1 and m.user_id = $2`,
    [ctx.auth.teamId, userId],
  );
  return { ...(rows[0] ?? { user_id: userId, email: ctx.auth.email ?? null, digest: false }), mail_enabled };
}
