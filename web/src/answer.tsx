import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'preact/hooks';
import { get } from './api';
import type { Data, Schemas } from './api-types';
import { answerHtml, markBrands, type TrackedBrand } from './answer-markdown';
import { PROVIDER_NAMES } from './window';
import { marketName, parseMarket } from './markets';
import './answer.css';

// One way to show an AI answer, wherever it appears (the answers feed, a prompt's page):
// its engine, model and date, the markdown as formatted text (sanitized: answer-markdown.ts)
// with the tracked brands marked (own brand in the accent colour, competitors muted), and
// its citations as a numbered list with their domains.

export type Chat = Schemas['ChatItem'] & { prompt_id?: string; topic_name?: string | null };
export type { TrackedBrand };

/** The project's tracked brands (own brand first), for highlighting. */
export function useTrackedBrands(projectId: string): TrackedBrand[] {
  const competitorsQuery = useQuery({ queryKey: ['competitors', projectId, ''], queryFn: () => get<Data<'/v1/projects/{project_id}/competitors'>>(`/projects/${projectId}/competitors`) });
  return useMemo(() => (competitorsQuery.data?.active_competitors ?? []).map((activeCompetitor) => ({ name: activeCompetitor.name, own: activeCompetitor.is_own_brand })).sort((a, b) => Number(b.own) - Number(a.own)), [competitorsQuery.data]);
}

/** Plain text (an excerpt) with the brands marked: text nodes and <mark> only, never markup. */
export function MarkedText({ text, brands }: { text: string; brands: readonly TrackedBrand[] }) {
  const html = useMemo(() => {
    const box = document.createElement('span');
    box.textContent = text;
    markBrands(box, brands);
    return box.innerHTML;
  }, [text, brands]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: built from a text node and <mark> elements made with the DOM
  return <span dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The answer's markdown as sanitized formatted text with the brands marked. */
export function AnswerBody({ text, brands }: { text: string; brands: readonly TrackedBrand[] }) {
  const html = useMemo(() => {
    const box = document.createElement('div');
    box.innerHTML = answerHtml(text);
    markBrands(box, brands);
    return box.innerHTML;
  }, [text, brands]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the output of DOMPurify (answer-markdown.ts) plus <mark> elements made with the DOM
  return <div class="answer-body" dangerouslySetInnerHTML={{ __html: html }} />;
}

const domainOf = (link: string) => {
  try {
    return new URL(link).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
};

export function Citations({ references }: { references: Chat['references'] }) {
  if (!references.length) return <p class="muted small">No citations in this answer.</p>;
  return (
    <ol class="citations" aria-label="Citations">
      {references.map((reference) => {
        const domain = domainOf(reference.link);
        return (
          <li key={reference.reference_index} value={reference.reference_index}>
            {/^https?:\/\//i.test(reference.link) ? (
              <a href={reference.link} target="_blank" rel="nofollow noopener noreferrer">
                {reference.title || reference.link}
              </a>
            ) : (
              <span>{reference.title || reference.link}</span>
            )}
            {domain ? <span class="muted small"> · {domain}</span> : null}
          </li>
        );
      })}
    </ol>
  );
}

/** "Mentioned, 2nd" or "Not mentioned" for the own brand. */
export function MentionChip({ chat }: { chat: Chat }) {
  return chat.mentioned ? (
    <span class="chip chip-own">Mentioned{chat.position ? `, #${chat.position}` : ''}</span>
  ) : (
    <span class="chip">Not mentioned</span>
  );
}

const when = (iso: string) => new Date(iso).toLocaleString([], { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }) + ' UTC';

/** One answer in full: who answered what and when, the text, the citations. */
export function AnswerArticle({ chat, brands, showPrompt = false }: { chat: Chat; brands: readonly TrackedBrand[]; showPrompt?: boolean }) {
  const named = Object.keys(chat.brands_mentioned ?? {});
  return (
    <article class="answer" data-answer={chat.id} aria-label={`Answer from ${PROVIDER_NAMES[chat.platform] ?? chat.platform}`}>
      <header class="answer-head">
        <strong>{PROVIDER_NAMES[chat.platform] ?? chat.platform}</strong>
        <span class="muted small">
          {chat.model ? `${chat.model} · ` : ''}
          {when(chat.date)}
          {chat.sample > 1 ? ` · sample ${chat.sample}` : ''}
          {chat.market ? (
            <>
              {' · '}
              <span title={marketName(parseMarket(chat.market))}>{chat.market}</span>
            </>
          ) : null}
        </span>
        <MentionChip chat={chat} />
      </header>
      {showPrompt ? (
        <p class="answer-prompt">
          <span class="muted small">Prompt{chat.topic_name ? ` · ${chat.topic_name}` : ''}</span>
          <br />
          {chat.prompt_content}
        </p>
      ) : null}
      <AnswerBody text={chat.full_content} brands={brands} />
      {named.length ? (
        <p class="muted small">
          Brands named, in order: <MarkedText text={named.join(', ')} brands={brands} />
        </p>
      ) : null}
      <h3 class="answer-sub">Citations</h3>
      <Citations references={chat.references} />
      {chat.search_queries.length ? (
        <>
          <h3 class="answer-sub">Searches the engine ran</h3>
          <ul class="search-queries" aria-label="Searches the engine ran">
            {chat.search_queries.map((query) => (
              <li key={query}>{query}</li>
            ))}
          </ul>
        </>
      ) : null}
    </article>
  );
}
