import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';

// `sightline admin …` (`npm run admin -- …`): the operator's commands. They talk to the
// RUNNING service over HTTP with the operator token, so they work while `npm start` holds
// the embedded store's folder and against any process of a server-mode deployment. They
// never open the store themselves.

const PLANS = ['skip_trial', 'basic', 'pro', 'enterprise'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface TeamRow {
  team_id: string;
  plan: string;
  rate_limit_tier: string;
  monthly_credits: number;
  credits_used: number;
  members: string[];
  projects: number;
}

class AdminCliError extends Error {}

/** The running service's base URL: SIGHTLINE_URL, else this machine at PORT. */
export function serviceUrl(env: NodeJS.ProcessEnv): string {
  if (env.SIGHTLINE_URL) return env.SIGHTLINE_URL.replace(/\/+$/, '');
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || '8080'}`;
}

/** ADMIN_TOKEN, else the token the embedded service wrote into DATA_DIR at its first start. */
export function operatorToken(env: NodeJS.ProcessEnv): string {
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  const file = path.resolve(env.DATA_DIR || './data', 'admin.token');
  try {
    const token = fs.readFileSync(file, 'utf8').trim();
    if (token) return token;
  } catch {
    // explained below
  }
  throw new AdminCliError(
    `No operator token: set ADMIN_TOKEN (as the service has it), or start the embedded service once so it writes ${file}.`,
  );
}

async function callService(method: string, url: string, body?: unknown): Promise<unknown> {
  const base = serviceUrl(process.env);
  const token = operatorToken(process.env);
  let res: Response;
  try {
    res = await fetch(`${base}/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new AdminCliError(`Sightline is not answering at ${base}: start it (npm start), or set SIGHTLINE_URL (or PORT) to where it runs.`);
  }
  const text = await res.text();
  let json: { data?: unknown; detail?: string } = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    throw new AdminCliError(`${base} answered ${res.status} with something other than Sightline's JSON: is SIGHTLINE_URL right?`);
  }
  if (res.status === 401) throw new AdminCliError(`The service refused the operator token (401): use the ADMIN_TOKEN the service runs with.`);
  if (!res.ok) throw new AdminCliError(`${res.status}: ${json.detail ?? text}`);
  return json.data;
}

function teamLine(t: TeamRow): string {
  const left = Math.max(0, t.monthly_credits - t.credits_used);
  return [t.team_id, t.plan.padEnd(10), `${left}/${t.monthly_credits} credits left`.padEnd(22), `${t.projects} project(s)`.padEnd(13), t.members.join(', ')].join('  ');
}

async function findTeam(who: string): Promise<string> {
  if (UUID.test(who)) return who;
  if (!who.includes('@')) throw new AdminCliError(`"${who}" is neither a team id (UUID) nor an email`);
  const teams = (await callService('GET', `/admin/teams?email=${encodeURIComponent(who)}`)) as TeamRow[];
  if (teams.length === 0) throw new AdminCliError(`No team has a member with the email ${who.trim().toLowerCase()}`);
  if (teams.length > 1) {
    throw new AdminCliError(`${who} belongs to ${teams.length} teams; name one by its id:\n${teams.map(teamLine).join('\n')}`);
  }
  return teams[0]!.team_id;
}

/** Registers `admin plan | teams | callback-secret` on the CLI. */
export function registerAdminCommands(program: Command): void {
  const admin = program
    .command('admin')
    .description('Operator commands against the running service (SIGHTLINE_URL or PORT; ADMIN_TOKEN or DATA_DIR/admin.token)');

  admin
    .command('plan')
    .description(`Change a team's plan (${PLANS.join(', ')}); the new credits and limits apply at once`)
    .argument('<team>', "a member's email or the team id")
    .argument('<plan>', PLANS.join(' | '))
    .action(async (who: string, plan: string) => {
      if (!PLANS.includes(plan)) throw new AdminCliError(`Unknown plan "${plan}": one of ${PLANS.join(', ')}`);
      const teamId = await findTeam(who);
      const team = (await callService('PATCH', `/admin/teams/${teamId}`, { plan })) as TeamRow;
      console.log(`Team ${team.team_id} is now on ${team.plan}: ${team.monthly_credits} credits a month, ${team.credits_used} used this month.`);
    });

  admin
    .command('teams')
    .description('List every team: plan, credits left this month, projects, members')
    .option('--email <email>', "only this person's teams")
    .option('--json', 'the rows as JSON')
    .action(async (o: { email?: string; json?: boolean }) => {
      const teams = (await callService('GET', `/admin/teams${o.email ? `?email=${encodeURIComponent(o.email)}` : ''}`)) as TeamRow[];
      if (o.json) console.log(JSON.stringify(teams, null, 2));
      else if (teams.length === 0) console.log('No teams yet.');
      else console.log(teams.map(teamLine).join('\n'));
    });

  admin
    .command('callback-secret')
    .description('Print the secret that signs bootstrap callbacks, read from the running service')
    .action(async () => {
      console.log(await callbackSecretFromService());
    });
}

/** The callback secret as the running service has it (for `callback-secret` while the store is in use). */
export async function callbackSecretFromService(): Promise<string> {
  return ((await callService('GET', '/admin/callback-secret')) as { secret: string }).secret;
}
