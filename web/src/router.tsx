import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';

// A small history-API router: the path picks the page, the query string holds the view's
// filters (window, providers), so a copied link shows the same view.

export interface Location {
  path: string;
  query: URLSearchParams;
}

const read = (): Location => ({ path: window.location.pathname, query: new URLSearchParams(window.location.search) });
const RouterContext = createContext<Location>(read());

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event('sightline:navigate'));
}

export function Router({ children }: { children: ComponentChildren }) {
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const update = () => setLoc(read());
    window.addEventListener('popstate', update);
    window.addEventListener('sightline:navigate', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('sightline:navigate', update);
    };
  }, []);
  return <RouterContext.Provider value={loc}>{children}</RouterContext.Provider>;
}

export const useLocation = () => useContext(RouterContext);

/** Sets (or removes) query parameters of the current URL, keeping the path. */
export function setQuery(patch: Record<string, string | null>): void {
  const q = new URLSearchParams(window.location.search);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || v === '') q.delete(k);
    else q.set(k, v);
  }
  const s = q.toString();
  navigate(`${window.location.pathname}${s ? `?${s}` : ''}`, true);
}

/** Matches `/projects/:id/prompts` style patterns; returns the params or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const out: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) out[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return out;
}

export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { href, children, ...rest } = props;
  return (
    <a
      {...rest}
      href={href}
      onClick={(e) => {
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
