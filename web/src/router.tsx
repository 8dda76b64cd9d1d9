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
  const params = new URLSearchParams(window.location.search);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === '') params.delete(key);
    else params.set(key, value);
  }
  const encoded = params.toString();
  navigate(`${window.location.pathname}${encoded ? `?${encoded}` : ''}`, true);
}

/** Matches `/projects/:id/prompts` style patterns; returns the params or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const patternParts = pattern.split('/').filter(Boolean);
  const pathParts = path.split('/').filter(Boolean);
  if (patternParts.length !== pathParts.length) return null;
  const out: Record<string, string> = {};
  for (let i = 0; i < patternParts.length; i++) {
    if (patternParts[i].startsWith(':')) out[patternParts[i].slice(1)] = decodeURIComponent(pathParts[i]);
    else if (patternParts[i] !== pathParts[i]) return null;
  }
  return out;
}

export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { href, children, ...rest } = props;
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
