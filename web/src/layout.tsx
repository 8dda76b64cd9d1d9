import type { ComponentChildren } from 'preact';
import { Link, match, useLocation } from './router';
import { useSession } from './session';

export function Layout({ children, onSignOut }: { children: ComponentChildren; onSignOut: () => void }) {
  const { session } = useSession();
  const loc = useLocation();
  const project = match('/projects/:id', loc.path) ?? (loc.path.startsWith('/projects/') ? { id: loc.path.split('/')[2] } : null);
  const tabs = project
    ? [
        ['Overview', `/projects/${project.id}`],
        ['Prompts', `/projects/${project.id}/prompts`],
        ['Competitors', `/projects/${project.id}/competitors`],
        ['Sources', `/projects/${project.id}/sources`],
        ['Actions', `/projects/${project.id}/actions`],
        ['Project settings', `/projects/${project.id}/settings`],
      ]
    : [];
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link href="/projects" class="brand">
          Sightline
        </Link>
        <nav aria-label="Main">
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
      </header>
      {tabs.length ? (
        <nav class="tabs" aria-label="Project">
          {tabs.map(([label, href]) => (
            <Link key={href} href={href} aria-current={loc.path === href ? 'page' : undefined}>
              {label}
            </Link>
          ))}
        </nav>
      ) : null}
      <main id="main">{children}</main>
    </>
  );
}
