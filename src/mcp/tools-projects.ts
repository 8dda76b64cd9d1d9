import { ProjectParams } from '../modules/common.js';
import { successEnvelope, statusEnvelope } from '../lib/envelope.js';
import { CreateProjectBody, ProjectAccepted } from '../modules/accounts/schema.js';
import * as projects from '../modules/projects/service.js';
import * as projectSchemas from '../modules/projects/schema.js';
import * as topics from '../modules/topics/service.js';
import * as topicSchemas from '../modules/topics/schema.js';
import * as prompts from '../modules/prompts/service.js';
import * as promptSchemas from '../modules/prompts/schema.js';
import { resolveWindow, WindowQuery } from '../modules/analytics/window.js';
import { PROVIDERS } from '../ports/providers/types.js';
import { ci, pct, plural, tool, type Hints } from './tool-kit.js';

export const READ: Hints = { readOnlyHint: true, openWorldHint: false };
export const WINDOW_NOTE =
  `Window: duration_days (1-365, default 7, ending today UTC) or date_from/date_to (YYYY-MM-DD, inclusive); providers is a comma-separated filter of engines (${PROVIDERS.join(', ')}).`;

export const projectTools = [
  tool({
    name: 'list_projects',
    title: 'List projects',
    description: "The team's projects, oldest first: id, name, brand name, website, market (location, language), brand aliases, created_at. Start here to find a project_id.",
    scope: 'read',
    hints: READ,
    output: projectSchemas.ProjectListEnvelope,
    run: async (ctx) => successEnvelope(await projects.listProjects(ctx)),
    summary: (out) =>
      out.data.length ? `${plural(out.data.length, 'project')}: ${out.data.map((p) => `${p.name} (${p.id})`).join(', ')}` : 'No projects yet; create one with create_project.',
  }),
  tool({
    name: 'get_project',
    title: 'Get a project',
    description:
      "One project with its brand aliases and how its bootstrap went: bootstrap_status is 'initializing' while the first prompts, competitors and answers are being made (a minute or two), then 'completed' or 'error'.",
    scope: 'read',
    hints: READ,
    params: ProjectParams,
    output: projectSchemas.ProjectEnvelope,
    run: async (ctx, { params }) => successEnvelope(await projects.getProject(ctx, params.project_id)),
    summary: ({ data: p }) => `${p.name} (brand ${p.brand_name ?? 'unset'}, ${p.website_url ?? 'no website'}): bootstrap ${p.bootstrap_status}.`,
  }),
  tool({
    name: 'create_project',
    title: 'Create a project',
    description:
      'Create a project for a brand and start its bootstrap: Sightline reads the website, writes topics, prompts and competitors, and collects the first answers in the background. Returns project_id and status (initializing); poll get_project until bootstrap_status is completed. webhook_url receives a callback when the bootstrap ends. Counts against the plan\'s projects.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    body: CreateProjectBody,
    output: ProjectAccepted,
    run: async (ctx, { body }) => statusEnvelope(await projects.createProject(ctx, body), 202),
    summary: ({ data }) => `Project ${data.project_id} created; bootstrap ${data.status}. Poll get_project until it is completed.`,
  }),
  tool({
    name: 'update_project',
    title: 'Edit a project',
    description:
      "Change a project's name, brand_name, brand_aliases (replaces the list), website_url, location, language, providers (the engines tracked from the next run) or samples_per_run; send only what changes. A change of brand name, aliases or website re-reads the stored answers in the background, so figures may move for a minute. Returns the project.",
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    params: ProjectParams,
    body: projectSchemas.PatchProjectBody,
    output: projectSchemas.ProjectEnvelope,
    run: async (ctx, { params, body }) => successEnvelope(await projects.updateProject(ctx, params.project_id, body)),
    summary: ({ data: p }) => `${p.name} (brand ${p.brand_name ?? 'unset'}${p.brand_aliases.length ? `, also ${p.brand_aliases.join(', ')}` : ''}) saved.`,
  }),
  tool({
    name: 'delete_project',
    title: 'Delete a project',
    description:
      "Delete a project with every prompt, answer, figure, competitor, topic, action and pending delivery under it; the plan's project slot is free again. This cannot be undone.",
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    params: ProjectParams,
    output: projectSchemas.ProjectDeleted,
    run: async (ctx, { params }) => statusEnvelope(await projects.deleteProject(ctx, params.project_id)),
    summary: ({ data }) => data.message,
  }),
  tool({
    name: 'list_topics',
    title: 'List topics',
    description: "The project's topics (groups of prompts): topic_id, name, description. create_prompts needs a topic_id.",
    scope: 'read',
    hints: READ,
    params: topicSchemas.ProjectParams,
    output: topicSchemas.TopicListEnvelope,
    run: async (ctx, { params }) => successEnvelope(await topics.listTopics(ctx, params.project_id)),
    summary: (out) => `${plural(out.data.length, 'topic')}${out.data.length ? `: ${out.data.map((t) => `${t.name} (${t.topic_id})`).join(', ')}` : ''}`,
  }),
  tool({
    name: 'create_topic',
    title: 'Create a topic',
    description: 'Create a topic (a group of prompts) with a name unique in the project and an optional description. Returns topic_id, which create_prompts takes.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    params: topicSchemas.ProjectParams,
    body: topicSchemas.CreateTopicBody,
    output: topicSchemas.TopicEnvelope,
    run: async (ctx, { params, body }) => successEnvelope(await topics.createTopic(ctx, params.project_id, body)),
    summary: ({ data: t }) => `Topic "${t.name}" created (${t.topic_id}).`,
  }),
  tool({
    name: 'update_topic',
    title: 'Rename a topic',
    description: "Change a topic's name or description (description null clears it); send only what changes.",
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    params: topicSchemas.TopicParams,
    body: topicSchemas.PatchTopicBody,
    output: topicSchemas.TopicEnvelope,
    run: async (ctx, { params, body }) => successEnvelope(await topics.updateTopic(ctx, params.project_id, params.topic_id, body)),
    summary: ({ data: t }) => `Topic ${t.topic_id} is now "${t.name}".`,
  }),
  tool({
    name: 'delete_topic',
    title: 'Delete a topic',
    description: 'Delete a topic. A topic that holds prompts is refused unless move_to names another topic of the project, which then takes its prompts (their history stays).',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    params: topicSchemas.TopicParams,
    query: topicSchemas.DeleteTopicQuery,
    output: topicSchemas.TopicDeleted,
    run: async (ctx, { params, query }) => statusEnvelope(await topics.deleteTopic(ctx, params.project_id, params.topic_id, query.move_to)),
    summary: ({ data }) => `${data.message}${data.moved_prompts ? ` ${plural(data.moved_prompts, 'prompt')} moved.` : ''}`,
  }),
  tool({
    name: 'list_markets',
    title: 'List markets',
    description:
      "The markets (country and language) the project's active prompts run in, each with its number of prompts. Each prompt in each market is a series of its own; pass a market's code (e.g. US-en) as `market` to any analytics tool to read that market alone.",
    scope: 'read',
    hints: READ,
    params: ProjectParams,
    output: promptSchemas.ProjectMarketsEnvelope,
    run: async (ctx, { params }) => successEnvelope(await prompts.listProjectMarkets(ctx, params.project_id)),
    summary: ({ data }) => `${plural(data.length, 'market')}${data.map((m) => `\n- ${m.market}: ${plural(m.prompts, 'prompt')}`).join('')}`,
  }),
  tool({
    name: 'list_prompts',
    title: 'List prompts',
    description: `The project's tracked prompts (questions asked of the AI engines) by creation date, each with the window's metrics: visibility (percent of answers that mention the brand, with a 95% CI), sentiment (0-100), position (mean rank among brands named, 1 is first), trend against the window before. ${WINDOW_NOTE}`,
    scope: 'read',
    hints: READ,
    params: ProjectParams,
    query: WindowQuery,
    output: promptSchemas.PromptListEnvelope,
    run: async (ctx, { params, query }) => successEnvelope(await prompts.listPrompts(ctx, params.project_id, resolveWindow(query))),
    summary: ({ data }) =>
      `${plural(data.total, 'prompt')}${data.prompts
        .slice(0, 5)
        .map((p) => `\n- ${p.content}: visibility ${pct(p.visibility)}${ci(p.visibility_ci)}, trend ${p.trend ?? 'n/a'}`)
        .join('')}${data.total > 5 ? '\n…' : ''}`,
  }),
  tool({
    name: 'get_prompt',
    title: 'Get a prompt',
    description: `One tracked prompt with the window's metrics: visibility (percent of answers naming the brand, with a 95% CI and the answers it rests on), sentiment (0-100), position (mean rank, 1 is first), trend against the window before. ${WINDOW_NOTE}`,
    scope: 'read',
    hints: READ,
    params: promptSchemas.PromptParams,
    query: WindowQuery,
    output: promptSchemas.PromptEnvelope,
    run: async (ctx, { params, query }) => successEnvelope(await prompts.getPrompt(ctx, params.project_id, params.prompt_id, resolveWindow(query))),
    summary: ({ data: p }) => `"${p.content}": visibility ${pct(p.visibility)}${ci(p.visibility_ci)}, trend ${p.trend ?? 'n/a'}.`,
  }),
  tool({
    name: 'create_prompts',
    title: 'Create prompts',
    description:
      'Add 1 to 50 prompts to a topic of the project; tracking begins at once (answers arrive within minutes). Each active prompt counts against the plan\'s prompt quota. country is an optional two-letter code. Returns the created prompts with their ids.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    params: ProjectParams,
    body: promptSchemas.CreatePromptsBody,
    output: promptSchemas.PromptsCreatedEnvelope,
    run: async (ctx, { params, body }) => statusEnvelope(await prompts.createPrompts(ctx, params.project_id, body)),
    summary: ({ data }) => `Created ${plural(data.created, 'prompt')}: ${data.prompts.map((p) => p.id).join(', ')}`,
  }),
  tool({
    name: 'update_prompt',
    title: 'Update a prompt',
    description: "Change a prompt's content, country, topic_id or prompt_type (Active, Inactive, Suggested); send only what changes. Returns the prompt with the last 7 days' metrics.",
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    params: promptSchemas.PromptParams,
    body: promptSchemas.PatchPromptBody,
    output: promptSchemas.PromptEnvelope,
    run: async (ctx, { params, body }) => successEnvelope(await prompts.updatePrompt(ctx, params.project_id, params.prompt_id, body)),
    summary: ({ data: p }) => `Prompt ${p.id} is now "${p.content}" (${p.prompt_type}).`,
  }),
  tool({
    name: 'delete_prompt',
    title: 'Delete a prompt',
    description: 'Delete a prompt and its whole history of answers and metrics. This cannot be undone.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    params: promptSchemas.PromptParams,
    output: promptSchemas.PromptDeletedEnvelope,
    run: async (ctx, { params }) => statusEnvelope(await prompts.deletePrompt(ctx, params.project_id, params.prompt_id)),
    summary: ({ data }) => data.message,
  }),
];
