import { plainList } from './builtin-actions.js';
import type { ForumCommentInput } from './types.js';

// The built-in writer's forum reply: useful on its own (advice that holds whatever the
// reader picks), names the brand once, discloses the author's affiliation and carries no
// link, so moderators and readers do not take it for spam. Free-text instructions need a
// model: the built-in writer does not follow them.

const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });

/** The thread's question: its first sentence ending in "?", else its title. */
function questionOf(thread: ForumCommentInput['thread']): string {
  for (const source of [thread.title, thread.text ?? '']) {
    for (const { segment } of SENTENCES.segment(source)) {
      const s = segment.trim();
      if (s.endsWith('?') && s.length <= 200) return s;
    }
  }
  return thread.title.trim();
}

/** A page title without the site's suffix ("… : r/sales", "… - Reddit", "… | Forum"). */
export function threadTitle(title: string): string {
  return title.replace(/\s+(?::|\||-|–|—)\s+[^:|–—]{1,40}$/, '').trim() || title.trim();
}

export function countWords(text: string): number {
  return (text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? []).length;
}

export function builtinForumComment(input: ForumCommentInput): { comment: string } {
  const brand = input.brand.name;
  const keywords = (input.keywords ?? []).map((k) => k.trim()).filter(Boolean);
  const question = questionOf({ ...input.thread, title: threadTitle(input.thread.title) });
  const about = keywords.length ? ` on ${plainList(keywords, 3)}` : '';
  const paragraphs = [
    `On "${question}": the honest answer${about} depends more on your situation than on any one product.`,
    [
      'A few things worth checking whatever you pick:',
      '- What you need day to day. Write down the two or three jobs it must do well and test each option against those, not against the feature list.',
      '- What it costs once you grow. Compare the price over a year or two with the extra seats or usage you expect, not just the entry plan.',
      '- How easy it is to leave. Check that you can export your data in a usable format before you commit.',
    ].join('\n'),
    `If you share a bit more about your team size and budget, people here can give you a much more specific answer.`,
    `Full disclosure: I work at ${brand}, so I'm biased and won't pretend otherwise. ${brand} is one of the options, but the checklist above is how I'd judge any of them, ours included.`,
  ];
  return { comment: paragraphs.join('\n\n') };
}
