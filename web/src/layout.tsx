import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Link, match, useLocation } from './router';
import { useSession } from './session';
import { RateLimitNotice } from './ui';
import { SimulatedNotice } from './simulated-notice';

// The frame of every signed-in page: a skip link first, then the header. At 1280 px the
// main links and the project's tabs are shown; at 600 px and less they collapse behind a
// "Menu" button (aria-expanded, Esc closes it and gives focus back to the button, following
// a link closes it). A new page moves focus to <main> so a screen reader starts there.

export function Layout({ children, onSignOut }: { children: ComponentChildren; onSignOut: () => void }) {
  const { session } = useSession();
  const loc = useLocation();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  const project = match('/projects/:id', loc.path) ?? (loc.path.startsWith('/projects/') ? { id: loc.path.split('/')[2] } : null);
  const tabs = project
    ? [
        ['Overview', `/projects/${project.id}`],
        ['Answers', `/projects/${project.id}/answers`],
        ['Prompts', `/projects/${project.id}/prompts`],
        ['Competitors', `/projects/${project.id}/competitors`],
        ['Sources', `/projects/${project.id}/sources`],
        ['Actions', `/projects/${project.id}/actions`],
        ['Alerts', `/projects/${project.id}/alerts`],
        ['Crawlers', `/projects/${project.id}/crawlers`],
        ['Site audit', `/projects/${project.id}/audit`],
        ['Project settings', `/projects/${project.id}/settings`],
      ]
    : [];
  useEffect(() => {
    setOpen(false);
    if (first.current) first.current = false;
    else main.current?.focus({ preventScroll: true });
  }, [loc.path]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link href="/projects" class="brand">
          Sightline
        </Link>
        <button ref={button} type="button" class="menu-button secondary small" aria-expanded={open ? 'true' : 'false'} aria-controls="site-menu" onClick={() => setOpen(!open)}>
          Menu
        </button>
        <div id="site-menu" class={open ? 'menu open' : 'menu'}>
          <nav aria-label="Main" class="main-nav">
            <Link href="/projects" aria-current={loc.path === '/projects' ? 'page' : undefined}>
              Projects
            </Link>
            <Link href="/settings" aria-current={loc.path === '/settings' ? 'page' : undefined}>
              Settings
            </Link>
            <Link href="/team" aria-current={loc.path === '/team' ? 'page' : undefined}>
              Team
            </Link>
            {session?.scope === 'admin' ? (
              <Link href="/team/audit" aria-current={loc.path === '/team/audit' ? 'page' : undefined}>
                Audit
              </Link>
            ) : null}
          </nav>
          <div class="who">
            <span class="muted small" data-scope={session?.scope}>
              {session?.email ?? 'API key session'} · {session?.scope}
            </span>
            <button type="button" class="secondary small" onClick={onSignOut}>
              Sign out
            </button>
          </div>
          {tabs.length ? (
            <nav class="tabs" aria-label="Project">
              {tabs.map(([label, href]) => (
                <Link key={href} href={href} aria-current={loc.path === href ? 'page' : undefined}>
                  {label}
                </Link>
              ))}
            </nav>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} ref={main}>
        <RateLimitNotice />
        {project && /^[0-9a-f-]{36}$/i.test(project.id) ? <SimulatedNotice projectId={project.id} /> : null}
        {children}
      </main>
    </>
  );
}
