import { diffWordsWithSpace } from 'diff';

// Its own module: only the action panel needs a diff, so the library stays out of the
// first page's script (pages are loaded on first visit).

/** Words only: a lone comma or full stop changed is not counted as a word. */
const countWords = (text: string) => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

/**
 * Current against proposed text, word by word, side by side: removed words struck in the
 * current text, added words marked in the proposed one. Text nodes only: outside text
 * (a page, a model's edit) is never parsed as HTML.
 */
export function TextDiff(props: { before: string | null; after: string | null; beforeLabel?: string; afterLabel?: string }) {
  const parts = diffWordsWithSpace(props.before ?? '', props.after ?? '');
  const added = parts.filter((part) => part.added).reduce((total, part) => total + countWords(part.value), 0);
  const removed = parts.filter((part) => part.removed).reduce((total, part) => total + countWords(part.value), 0);
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
              {parts.map((part, i) => (part.added ? null : part.removed ? <del key={i}>{part.value}</del> : <span key={i}>{part.value}</span>))}
            </p>
          )}
        </div>
        <div class="diff-pane" data-side="after">
          <h4>{props.afterLabel ?? 'Proposed text'}</h4>
          {props.after === null ? (
            <p class="muted small">Nothing: this text is removed.</p>
          ) : (
            <p class="diff-text">
              {parts.map((part, i) => (part.removed ? null : part.added ? <ins key={i}>{part.value}</ins> : <span key={i}>{part.value}</span>))}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
