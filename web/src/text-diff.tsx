import { diffWordsWithSpace } from 'diff';

// Its own module: only the action panel needs a diff, so the library stays out of the
// first page's script (pages are loaded on first visit).

/** Words only: a lone comma or full stop changed is not counted as a word. */
const countWords = (s: string) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * Current against proposed text, word by word, side by side: removed words struck in the
 * current text, added words marked in the proposed one. Text nodes only: outside text
 * (a page, a model's edit) is never parsed as HTML.
 */
export function TextDiff(props: { before: string | null; after: string | null; beforeLabel?: string; afterLabel?: string }) {
  const parts = diffWordsWithSpace(props.before ?? '', props.after ?? '');
  const added = parts.filter((p) => p.added).reduce((n, p) => n + countWords(p.value), 0);
  const removed = parts.filter((p) => p.removed).reduce((n, p) => n + countWords(p.value), 0);
  return (
    <div class="diff" data-diff>
      <p class="muted small diff-summary">
        {added} word{added === 1 ? '' : 's'} added, {removed} removed
      </p>
      <div class="diff-panes">
        <div class="diff-pane" data-side="before">
          <h4>{props.beforeLabel ?? 'Current text'}</h4>
          {props.before === null ? (
            <p class="muted small">Nothing: this is new text.</p>
          ) : (
            <p class="diff-text">
              {parts.map((p, i) => (p.added ? null : p.removed ? <del key={i}>{p.value}</del> : <span key={i}>{p.value}</span>))}
            </p>
          )}
        </div>
        <div class="diff-pane" data-side="after">
          <h4>{props.afterLabel ?? 'Proposed text'}</h4>
          {props.after === null ? (
            <p class="muted small">Nothing: this text is removed.</p>
          ) : (
            <p class="diff-text">
              {parts.map((p, i) => (p.removed ? null : p.added ? <ins key={i}>{p.value}</ins> : <span key={i}>{p.value}</span>))}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
