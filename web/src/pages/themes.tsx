import { useQueries } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { get, queryString } from '../api';
import { Link } from '../router';
import { ListTable } from '../list-table';
import { Empty, ErrorBox, Loading, Section } from '../ui';
import type { ViewWindow } from '../window';

// What the answers say about each brand, by theme (GET /projects/{id}/themes, one request per
// brand): a table comparing the own brand with each competitor theme by theme, then the
// examples of one brand, each linking to the prompt whose answers it is quoted from.

interface ThemeExample {
  chat_id: string;
  prompt_id: string;
  sentiment: 'positive' | 'neutral' | 'negative';
  excerpt: string;
}
interface Theme {
  theme: string;
  mentions: number;
  positive: number;
  neutral: number;
  negative: number;
  examples: ThemeExample[];
}
export interface ThemeBrand {
  competitor_id: string;
  name: string;
  is_own_brand: boolean;
}

const LABELS: Record<string, string> = {
  price: 'Price',
  ease_of_use: 'Ease of use',
  support: 'Support',
  features: 'Features',
  integrations: 'Integrations',
  reliability: 'Reliability',
  security: 'Security',
  performance: 'Performance',
  scalability: 'Scalability',
  customization: 'Customization',
};
const label = (theme: string) => LABELS[theme] ?? theme;

/** "12 mentions: 8 positive, 3 neutral, 1 negative" as a cell: the count and a bar split by band. */
function Cell({ t: figures }: { t: Theme | undefined }) {
  if (!figures) return <span class="muted">–</span>;
  const pct = (count: number) => `${(100 * count) / figures.mentions}%`;
  return (
    <div class="theme-cell" title={`${figures.positive} positive, ${figures.neutral} neutral, ${figures.negative} negative`}>
      <span>{figures.mentions}</span>
      <span class="theme-bar" aria-hidden="true">
        <span class="pos" style={{ width: pct(figures.positive) }} />
        <span class="neu" style={{ width: pct(figures.neutral) }} />
        <span class="neg" style={{ width: pct(figures.negative) }} />
      </span>
      <span class="muted small">
        {figures.positive}+ {figures.negative}−
      </span>
    </div>
  );
}

export function Themes({ projectId, brands, w: viewWindow }: { projectId: string; brands: ThemeBrand[]; w: ViewWindow }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const window = queryString({ start_date: viewWindow.from, end_date: viewWindow.to });
  const results = useQueries({
    queries: brands.map((themeBrand) => ({
      queryKey: ['themes', projectId, themeBrand.competitor_id, window],
      queryFn: () => get<Theme[]>(`/projects/${projectId}/themes${window}&brand_id=${themeBrand.competitor_id}`),
    })),
  });
  const byBrand = brands.map((themeBrand, i) => ({ brand: themeBrand, themes: results[i]?.data ?? [] }));
  const themes = [...new Set(byBrand.flatMap((x) => x.themes.map((brandTheme) => brandTheme.theme)))];
  const total = (theme: string) => byBrand.reduce((sum, x) => sum + (x.themes.find((brandTheme) => brandTheme.theme === theme)?.mentions ?? 0), 0);
  themes.sort((x, y) => total(y) - total(x));
  const pending = results.some((themesQuery) => themesQuery.isPending);
  const shown = byBrand.find((x) => x.brand.competitor_id === chosen) ?? byBrand[0];
  return (
    <Section title="What the answers say, by theme">
      <p class="muted small">
        Answers of {viewWindow.from} to {viewWindow.to} that speak of each brand on a theme, and how: the bar is green for praise, grey for plain description, red for criticism.
      </p>
      {pending ? <Loading what="Loading the themes" /> : null}
      {results.map((themesQuery, i) => (
        <ErrorBox key={brands[i].competitor_id} error={themesQuery.error} />
      ))}
      {!pending && themes.length === 0 ? <Empty>No theme spoken of in the answers of this window yet.</Empty> : null}
      {themes.length ? (
        <ListTable
          name="themes"
          label="Themes by brand"
          rows={themes}
          rowKey={(theme) => theme}
          rowHeader="theme"
          rowAttributes={(theme) => ({ 'data-theme': theme })}
          columns={[
            { key: 'theme', header: 'Theme', cell: (theme: string) => label(theme) },
            ...byBrand.map((x) => ({
              key: x.brand.competitor_id,
              header: (
                <>
                  {x.brand.name} {x.brand.is_own_brand ? <span class="tag">you</span> : null}
                </>
              ),
              cell: (theme: string) => <Cell t={x.themes.find((brandTheme) => brandTheme.theme === theme)} />,
            })),
          ]}
        />
      ) : null}
      {shown && themes.length ? (
        <div class="theme-examples">
          <label>
            Examples for{' '}
            <select value={shown.brand.competitor_id} onChange={(event) => setChosen((event.currentTarget as HTMLSelectElement).value)}>
              {brands.map((themeBrand) => (
                <option key={themeBrand.competitor_id} value={themeBrand.competitor_id}>
                  {themeBrand.name}
                </option>
              ))}
            </select>
          </label>
          {shown.themes.length === 0 ? <Empty>No theme spoken of for {shown.brand.name} in this window.</Empty> : null}
          {shown.themes.map((brandTheme) => (
            <div key={brandTheme.theme} class="theme-example-group">
              <h3>{label(brandTheme.theme)}</h3>
              <ul>
                {brandTheme.examples.map((themeExample) => (
                  <li key={themeExample.chat_id} data-chat={themeExample.chat_id}>
                    <span class={`tag band-${themeExample.sentiment}`}>{themeExample.sentiment}</span> “{themeExample.excerpt}”{' '}
                    <Link href={`/projects/${projectId}/prompts/${themeExample.prompt_id}${viewWindow.query}`}>see the answers</Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      ) : null}
    </Section>
  );
}
