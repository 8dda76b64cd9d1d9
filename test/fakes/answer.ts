/**
 * A provider-neutral answer that every fake renders in its own wire format: the text in
 * segments, each citing some of the sources (by index). The same answer therefore comes
 * back from every fake, and tests know exactly what the adapters must make of it.
 */
export interface FakeSource {
  url: string;
  title: string;
  snippet: string;
}

export interface FakeAnswer {
  /** Overrides the fake's default model id in the response body. */
  model?: string;
  segments: Array<{ text: string; cites: number[] }>;
  /** All sources the engine found; the uncited ones show up where the wire format lists them. */
  sources: FakeSource[];
}

export const DEFAULT_SOURCES: FakeSource[] = [
  {
    url: 'https://www.forbes.com/advisor/business/software/best-crm-small-business/',
    title: 'Best CRM For Small Business Of 2025 – Forbes Advisor',
    snippet: 'We evaluated the leading CRM platforms on pricing, ease of use and pipeline features.',
  },
  {
    url: 'https://www.hubspot.com/products/crm',
    title: 'Free CRM Software & Tools for Your Whole Team | HubSpot',
    snippet: 'HubSpot CRM has free tools for everyone on your team, and it is 100% free.',
  },
  {
    url: 'https://www.pipedrive.com/en/pricing',
    title: 'Pricing plans | Pipedrive',
    snippet: 'Choose the Pipedrive plan that fits your sales team, billed annually or monthly.',
  },
  {
    url: 'https://www.reddit.com/r/sales/comments/1abc234/best_crm_for_a_small_team/',
    title: 'Best CRM for a small team? : r/sales',
    snippet: 'We started on a free plan and only upgraded once the pipeline got busy.',
  },
  {
    url: 'https://www.g2.com/categories/crm',
    title: 'Best CRM Software in 2025: Compare Reviews on 100+ Products | G2',
    snippet: 'Top CRM software ranked by user satisfaction.',
  },
];

/** Brands: HubSpot (praised), Pipedrive (mixed). Source 1 is cited twice, source 4 never. */
export const DEFAULT_ANSWER: FakeAnswer = {
  segments: [
    { text: 'The best CRM for a small sales team depends on budget and workflow.', cites: [0] },
    { text: 'HubSpot offers a free CRM with email tracking and simple pipelines.', cites: [1, 0] },
    { text: 'Pipedrive is built around visual deal pipelines, but it is not the cheapest option.', cites: [2] },
    { text: 'Smaller teams on Reddit often recommend starting with a free plan.', cites: [3, 1] },
  ],
  sources: DEFAULT_SOURCES,
};

/** Source indexes in order of first citation, each once. */
export function citedOrder(answer: FakeAnswer): number[] {
  const order: number[] = [];
  for (const s of answer.segments) for (const i of s.cites) if (!order.includes(i)) order.push(i);
  return order;
}

export function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}
