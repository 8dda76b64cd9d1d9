// Markets (country and language) as the dashboard names them: the codes of the API's `market=`
// (`DE-de`) shown as people say them ("Germany · German").

/** A market of the project as GET /projects/{id}/markets lists it. */
export interface ProjectMarket {
  market: string;
  country: string;
  language: string;
  prompts: number;
}

const regionNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;
const languageNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'language' }) : null;

/** `DE-de` as its two codes. */
export function parseMarket(code: string): Pick<ProjectMarket, 'country' | 'language'> {
  const [country = '', language = ''] = code.split('-');
  return { country, language };
}

/** `DE-de` as people say it: "Germany · German". */
export function marketName(market: Pick<ProjectMarket, 'country' | 'language'>): string {
  return `${displayName(regionNames, market.country)} · ${displayName(languageNames, market.language)}`;
}

/** A code's English name; the code itself where the browser has none (or the code is malformed). */
function displayName(names: Intl.DisplayNames | null, code: string): string {
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
}
