import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, queryString } from '../api';
import type { Data } from '../api-types';
import { AnswerArticle, type Chat, MarkedText, MentionChip, useTrackedBrands } from '../answer';
import { setQuery, useLocation } from '../router';
import { Empty, ErrorBox, Loading, Section } from '../ui';
import { PROVIDER_NAMES, useWindow } from '../window';
import { TopBar } from '../top-bar';

type Feed = Data<'/v1/projects/{project_id}/chats'>;
type Competitors = Data<'/v1/projects/{project_id}/competitors'>;
type Prompts = Data<'/v1/projects/{project_id}/prompts'>;
type Topics = Data<'/v1/projects/{project_id}/topics'>;

const PAGE_SIZE = 20;

/** Chooses an answer; on a narrow screen the reading pane is below the list, so it is brought into view. */
function showAnswer(id: string) {
  setQuery({ answer: id });
  if (window.matchMedia('(max-width: 860px)').matches) requestAnimationFrame(() => document.querySelector('.reading-pane')?.scrollIntoView({ block: 'start' }));
}
const short = (iso: string) => new Date(iso).toLocaleDateString([], { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * The answers feed: every answer of the window (GET /projects/{id}/chats), filtered by the
 * window's engines and dates and by prompt, topic and a brand named or not; a list of
 * excerpts beside a reading pane with the chosen answer in full. Filters, page and the
 * chosen answer live in the URL, so a copied link opens the same answer.
 */
export function Answers({ projectId }: { projectId: string }) {
  const viewWindow = useWindow();
  const { query } = useLocation();
  const page = Math.max(1, Number(query.get('page')) || 1);
  const filters = { prompt_id: query.get('prompt'), topic_id: query.get('topic'), brand_id: query.get('brand'), brand_named: query.get('brand') ? (query.get('named') ?? 'true') : null };
  const feedQs = `${viewWindow.query}${viewWindow.query ? '&' : '?'}${queryString({ ...filters, page, page_size: PAGE_SIZE }).slice(1)}`;
  const feed = useQuery({ queryKey: ['project-chats', projectId, feedQs], queryFn: () => get<Feed>(`/projects/${projectId}/chats${feedQs}`), placeholderData: keepPreviousData });
  const brands = useTrackedBrands(projectId);
  const competitors = useQuery({ queryKey: ['competitors', projectId, ''], queryFn: () => get<Competitors>(`/projects/${projectId}/competitors`) });
  const prompts = useQuery({ queryKey: ['prompts', projectId, ''], queryFn: () => get<Prompts>(`/projects/${projectId}/prompts`) });
  const topics = useQuery({ queryKey: ['topics', projectId], queryFn: () => get<Topics>(`/projects/${projectId}/topics`) });
  const items: Chat[] = feed.data?.items ?? [];
  const chosen = items.find((chat) => chat.id === query.get('answer')) ?? items[0];
  const filtered = !!(filters.prompt_id || filters.topic_id || filters.brand_id || viewWindow.providers.length);
  const pick = (patch: Record<string, string | null>) => setQuery({ ...patch, page: null, answer: null });
  return (
    <>
      <TopBar title="Answers" filters />
      <p class="muted">What the AI engines answered to your prompts, newest first, with your brand and your competitors highlighted.</p>
      <fieldset class="feed-filters" aria-label="Answer filters">
        <label>
          <span>Prompt</span>
          <select name="prompt" value={filters.prompt_id ?? ''} onChange={(event) => pick({ prompt: event.currentTarget.value || null })}>
            <option value="">All prompts</option>
            {(prompts.data?.prompts ?? []).map((prompt) => (
              <option key={prompt.id} value={prompt.id}>
                {prompt.content.length > 70 ? `${prompt.content.slice(0, 68)}…` : prompt.content}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Topic</span>
          <select name="topic" value={filters.topic_id ?? ''} onChange={(event) => pick({ topic: event.currentTarget.value || null })}>
            <option value="">All topics</option>
            {(topics.data ?? []).map((topic) => (
              <option key={topic.topic_id} value={topic.topic_id}>
                {topic.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Brand</span>
          <select name="brand" value={filters.brand_id ?? ''} onChange={(event) => pick({ brand: event.currentTarget.value || null })}>
            <option value="">Any brand</option>
            {(competitors.data?.active_competitors ?? []).map((activeCompetitor) => (
              <option key={activeCompetitor.competitor_id} value={activeCompetitor.competitor_id}>
                {activeCompetitor.name}
                {activeCompetitor.is_own_brand ? ' (you)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Brand is</span>
          <select name="named" value={filters.brand_named ?? 'true'} disabled={!filters.brand_id} onChange={(event) => pick({ named: event.currentTarget.value === 'false' ? 'false' : null })}>
            <option value="true">named</option>
            <option value="false">not named</option>
          </select>
        </label>
        {filtered ? (
          <button type="button" class="secondary small" onClick={() => pick({ prompt: null, topic: null, brand: null, named: null, providers: null })}>
            Clear filters
          </button>
        ) : null}
      </fieldset>
      <ErrorBox error={feed.error} />
      {feed.isPending ? <Loading what="Loading answers" shape="lines" /> : null}
      {feed.data && items.length === 0 ? (
        <Section title="No answers">
          <Empty>{filtered ? 'No answer in this window matches these filters.' : 'No answers in this window yet: the first run answers within a minute of creating a project, then every day.'}</Empty>
        </Section>
      ) : null}
      {items.length ? (
        <div class="feed">
          <div>
            <ul class="feed-list" aria-label="Answers">
              {items.map((item) => (
                <li key={item.id}>
                  <button type="button" class="feed-item" aria-current={item.id === chosen?.id ? 'true' : undefined} onClick={() => showAnswer(item.id)}>
                    <span class="line">
                      <strong class="small">{PROVIDER_NAMES[item.platform] ?? item.platform}</strong>
                      <span class="muted small">{short(item.date)}</span>
                    </span>
                    <span class="prompt">{item.prompt_content}</span>
                    <span class="excerpt">
                      <MarkedText text={item.chat_preview} brands={brands} />
                    </span>
                    <MentionChip chat={item} />
                  </button>
                </li>
              ))}
            </ul>
            <nav class="pager" aria-label="Pages of answers">
              <button type="button" class="secondary small" disabled={page <= 1} onClick={() => setQuery({ page: page > 2 ? String(page - 1) : null, answer: null })}>
                Newer
              </button>
              <span class="muted small">Page {page}</span>
              <button type="button" class="secondary small" disabled={!feed.data?.has_more} onClick={() => setQuery({ page: String(page + 1), answer: null })}>
                Older
              </button>
            </nav>
          </div>
          {chosen ? (
            <section class="reading-pane" aria-label="Answer">
              <AnswerArticle chat={chosen} brands={brands} showPrompt />
            </section>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
