import { useQueryClient } from '@tanstack/react-query';
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, isProjectUnreachable } from './api';
import { Icon } from './icons';
import { Link, useLocation } from './router';
import { projectOf, Sidebar } from './sidebar';
import { TopBar } from './top-bar';
import { ErrorBox, RateLimitNotice } from './ui';
import './frame.css';

// The frame of every signed-in page: a skip link first, the sidebar (sidebar.tsx), then the
// page. At 768 px and wider the sidebar is a column, collapsible to its icons (remembered);
// below, it is a drawer behind the "Menu" button (aria-expanded): focus moves into it and
// stays there (Tab wraps), Esc closes it and gives focus back to the button, following a
// link closes it. A new page moves focus to <main> so a screen reader starts there.

const COLLAPSED_KEY = 'sightline.sidebar.collapsed';
const DRAWER = '(max-width: 767px)';
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex="0"]';

const readCollapsed = () => {
  try {
    return localStorage.getItem(COLLAPSED_KEY) === '1';
  } catch {
    return false;
  }
};

/**
 * The refusal, if any, of a request for the project in the URL because the project cannot be
 * read (another team's, or deleted), whichever of the page's queries met it first.
 */
function useUnreachableProject(projectId: string | null): ApiError | null {
  const cache = useQueryClient().getQueryCache();
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    const find = () =>
      projectId === null
        ? null
        : (cache
            .findAll()
            .map((query) => (query.queryKey.includes(projectId) ? query.state.error : null))
            .find(isProjectUnreachable) ?? null);
    setError(find());
    return cache.subscribe(() => setError(find()));
  }, [cache, projectId]);
  return error;
}

export function Layout({ children, onSignOut }: { children: ComponentChildren; onSignOut: () => void }) {
  const loc = useLocation();
  const [open, setOpen] = useState(false);
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const button = useRef<HTMLButtonElement>(null);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  // A project that cannot be read is said once for the page, not in each of its panels.
  const unreachable = useUnreachableProject(projectOf(loc.path));
  useEffect(() => {
    setOpen(false);
    if (first.current) first.current = false;
    else main.current?.focus({ preventScroll: true });
  }, [loc.path]);
  // A layout effect: focus is inside the drawer, and Tab held there, in the same commit that
  // shows it, so a key pressed at once never lands behind it.
  useLayoutEffect(() => {
    if (!open) return;
    const drawer = document.getElementById('site-menu');
    const focusables = () => [...(drawer?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter((element) => element.offsetParent !== null);
    // Focus goes into the drawer: the current page's link, else its first control.
    (drawer?.querySelector<HTMLElement>('[aria-current="page"]') ?? focusables()[0])?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
        return;
      }
      if (event.key !== 'Tab' || !window.matchMedia(DRAWER).matches) return;
      const all = focusables();
      if (!all.length) return;
      const at = all.indexOf(document.activeElement as HTMLElement);
      if (event.shiftKey && at <= 0) {
        event.preventDefault();
        all[all.length - 1].focus();
      } else if (!event.shiftKey && (at === -1 || at === all.length - 1)) {
        event.preventDefault();
        all[0].focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  const collapse = (next: boolean) => {
    setCollapsed(next);
    try {
      localStorage.setItem(COLLAPSED_KEY, next ? '1' : '0');
    } catch {
      // private mode: the choice lasts for this page only
    }
  };
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <div class={`frame${collapsed ? ' collapsed' : ''}${open ? ' drawer-open' : ''}`}>
        <header class="mobile-bar">
          <button ref={button} type="button" class="menu-button" aria-expanded={open ? 'true' : 'false'} aria-controls="site-menu" onClick={() => setOpen(!open)}>
            <Icon name="menu" />
            Menu
          </button>
          <span class="mobile-brand">Sightline</span>
        </header>
        <Sidebar id="site-menu" collapsed={collapsed} onCollapse={collapse} onSignOut={onSignOut} onClose={() => {
            setOpen(false);
            button.current?.focus();
          }} />
        {open ? <div class="scrim" aria-hidden="true" onClick={() => setOpen(false)} /> : null}
        <main id="main" tabIndex={-1} ref={main}>
          <RateLimitNotice />
          {unreachable ? (
            <>
              <TopBar title="Project" />
              <ErrorBox error={unreachable} />
              <p>
                <Link href="/projects">Your projects</Link>
              </p>
            </>
          ) : (
            children
          )}
        </main>
      </div>
    </>
  );
}
