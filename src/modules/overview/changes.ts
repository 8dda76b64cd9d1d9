import type { RequestContext } from '../../context.js';
import type { ProjectRow } from '../projects/service.js';
import { compareMeans, compareProportions, type Comparison } from '../alerts/significance.js';
import * as metrics from '../analytics/metrics.js';
import { providerFilter, type Window } from '../analytics/window.js';
import { activeCompetitors, brandNo } from '../competitors/service.js';
import { brandSums, type BrandSums, type ProjectBrandWindow } from '../rollups/project-reads.js';
import { promptSums } from '../rollups/prompt-reads.js';
import { rollupMarket } from '../rollups/market-totals.js';
import { domainWindow } from '../rollups/domain-window.js';

// "What changed" on the overview (an extension of its summary read): the own brand's four
// figures tested against the window before, and the significant movers only (competitors,
// prompts, cited domains). The tests are the alerts' (two-proportion z-test for
// percentages, Welch's t-test for the means of position and sentiment, at least
// MIN_RESPONSES responses in each window), so the overview and an alert never disagree
// about what is significant.

/** How many movers of each kind the overview lists, the largest changes first. */
export const MOVERS_PER_KIND = 5;

type Direction = Comparison['direction'] | null;

interface Mover {
  direction: 'up' | 'down';
  value: number;
  previous: number;
  p_value: number;
}

const directionOf = (c: Comparison | null): Direction => c?.direction ?? null;

/** The comparisons that found a change, the largest first, at most MOVERS_PER_KIND. */
function movers<T extends Mover>(items: T[]): T[] {
  return items.sort((a, b) => Math.abs(b.value - b.previous) - Math.abs(a.value - a.previous)).slice(0, MOVERS_PER_KIND);
}

function moverOf(c: Comparison | null, value: number | null, previous: number | null): Mover | null {
  if (!c || c.direction === 'stable' || value === null || previous === null) return null;
  return { direction: c.direction, value, previous, p_value: Math.round(c.pValue * 10_000) / 10_000 };
}

const meanSums = (brand: BrandSums | undefined, field: 'position' | 'sentiment') => ({
  n: brand?.mentions ?? 0,
  sum: (field === 'position' ? brand?.positionSum : brand?.sentimentSum) ?? 0,
  sumSquares: (field === 'position' ? brand?.positionSquares : brand?.sentimentSquares) ?? 0,
});

const mentionsOfTracked = (window: ProjectBrandWindow, numbers: number[]) => numbers.reduce((n, no) => n + (window.brands.get(no)?.mentions ?? 0), 0);

export async function overviewChanges(ctx: RequestContext, project: ProjectRow, w: Window, previous: Window) {
  const providers = providerFilter(w);
  const market = rollupMarket(project, w.market);
  const [brands, now, before, prompts, domainsNow, domainsBefore] = await Promise.all([
    activeCompetitors(ctx.reads, project),
    brandSums(ctx.reads, project.id, { ...w, market }),
    brandSums(ctx.reads, project.id, { ...previous, market }),
    promptSums(
      ctx.reads,
      project.id,
      providers,
      [
        { from: w.from, to: w.to },
        { from: previous.from, to: previous.to },
      ],
      undefined,
      market,
    ),
    domainWindow(ctx.reads, project.id, providers, w.from, w.to, market),
    domainWindow(ctx.reads, project.id, providers, previous.from, previous.to, market),
  ]);
  const numbers = brands.map(brandNo);
  const allNow = mentionsOfTracked(now, numbers);
  const allBefore = mentionsOfTracked(before, numbers);
  const ownNow = now.brands.get(0);
  const ownBefore = before.brands.get(0);
  const ownMentionsNow = ownNow?.mentions ?? 0;
  const ownMentionsBefore = ownBefore?.mentions ?? 0;
  const own_brand = {
    visibility: directionOf(compareProportions(ownMentionsNow, now.responses, ownMentionsBefore, before.responses)),
    share_of_voice: directionOf(compareProportions(ownMentionsNow, allNow, ownMentionsBefore, allBefore)),
    position: directionOf(compareMeans(meanSums(ownNow, 'position'), meanSums(ownBefore, 'position'))),
    sentiment: directionOf(compareMeans(meanSums(ownNow, 'sentiment'), meanSums(ownBefore, 'sentiment'))),
  };

  const competitors = movers(
    brands
      .filter((b) => !b.is_own_brand)
      .flatMap((b) => {
        const x1 = now.brands.get(brandNo(b))?.mentions ?? 0;
        const x2 = before.brands.get(brandNo(b))?.mentions ?? 0;
        const m = moverOf(compareProportions(x1, now.responses, x2, before.responses), metrics.share(x1, now.responses), metrics.share(x2, before.responses));
        return m ? [{ competitor_id: b.id, name: b.name, ...m }] : [];
      }),
  );

  const { rows: promptRows } = await ctx.reads.query<{ id: string; content: string }>(
    `select id, content from prompts where project_id = $1 and prompt_type = 'active' and id = any($2::uuid[])`,
    [project.id, [...prompts.keys()]],
  );
  const promptMovers = movers(
    promptRows.flatMap((p) => {
      const [a, b] = prompts.get(p.id) ?? [];
      if (!a || !b) return [];
      const m = moverOf(compareProportions(a.mentioned, a.responses, b.mentioned, b.responses), metrics.visibility(a), metrics.visibility(b));
      return m ? [{ prompt_id: p.id, content: p.content, ...m }] : [];
    }),
  );

  // A domain's share: the responses citing it, of all the window's responses.
  const citingNow = new Map(domainsNow.domains.map((d) => [d.domain, d.responses]));
  const citingBefore = new Map(domainsBefore.domains.map((d) => [d.domain, d.responses]));
  const sources = movers(
    [...new Set([...citingNow.keys(), ...citingBefore.keys()])].flatMap((domain) => {
      const x1 = citingNow.get(domain) ?? 0;
      const x2 = citingBefore.get(domain) ?? 0;
      const m = moverOf(compareProportions(x1, now.responses, x2, before.responses), metrics.share(x1, now.responses), metrics.share(x2, before.responses));
      return m ? [{ domain, ...m }] : [];
    }),
  );

  return { own_brand, competitors, prompts: promptMovers, sources };
}
