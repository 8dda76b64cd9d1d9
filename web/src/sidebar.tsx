import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { get } from './api';
import { Icon, type IconName } from './icons';
import type { Project, ProjectDetail } from './pages/projects';
import { Link, navigate, useLocation } from './router';
import { useSession } from './session';

// The left sidebar: the project switcher at the top, the project's pages with icons, the
// team's pages at the bottom and the signed-in person last. At 768 px and wider it is a
// column that can be collapsed to its icons (remembered in localStorage); below, a drawer
// (layout.tsx opens it with the Menu button, traps focus in it and closes it with Esc).

/** One page link of the sidebar: its icon and label, marked as the current page when it is. */
function NavItem(props: { label: string; href: string; icon: IconName; current: boolean }) {
  return (
    <li>
      <Link href={props.href} title={props.label} aria-current={props.current ? 'page' : undefined}>
        <Icon name={props.icon} />
        <span class="label">{props.label}</span>
      </Link>
    </li>
  );
}

const PROJECT_PAGES: Array<[label: string, path: string, icon: IconName]> = [
  ['Overview', '', 'overview'],
  ['Answers', '/answers', 'answers'],
  ['Prompts', '/prompts', 'prompts'],
  ['Competitors', '/competitors', 'competitors'],
  ['Sources', '/sources', 'sources'],
  ['Crawlers', '/crawlers', 'crawlers'],
  ['Site audit', '/audit', 'audit'],
  ['Actions', '/actions', 'actions'],
  ['Alerts', '/alerts', 'alerts'],
  ['Project settings', '/settings', 'settings'],
];

/** The project of the current path, when the path is inside one (a project's id is a UUID: /projects/not-a-page is none). */
export function projectOf(path: string): string | null {
  const parts = path.split('/');
  return parts[1] === 'projects' && /^[0-9a-f-]{36}$/i.test(parts[2] ?? '') ? parts[2] : null;
}

export function Sidebar(props: { id: string; collapsed: boolean; onCollapse: (collapsed: boolean) => void; onSignOut: () => void; onClose: () => void }) {
  const { session } = useSession();
  const loc = useLocation();
  const projectId = projectOf(loc.path);
  const base = projectId ? `/projects/${encodeURIComponent(projectId)}` : '';
  // The project's page is the one whose path starts the current one (a prompt's page is under Prompts).
  const current = (href: string) => loc.path === href || (href !== base && loc.path.startsWith(`${href}/`));
  const teamPages: Array<[string, string, IconName]> = [
    ['Projects', '/projects', 'projects'],
    ['Settings', '/settings', 'settings'],
    ['Team', '/team', 'team'],
    ...(session?.scope === 'admin' ? ([['Audit log', '/team/audit', 'log']] as Array<[string, string, IconName]>) : []),
  ];
  const who = session?.email ?? 'API key session';
  return (
    <aside id={props.id} class="sidebar" aria-label="Sidebar">
      <div class="sidebar-top">
        <ProjectSwitcher projectId={projectId} />
        <button type="button" class="icon-button drawer-close" aria-label="Close navigation" onClick={props.onClose}>
          <Icon name="close" />
        </button>
      </div>
      <div class="sidebar-scroll">
        {projectId ? (
          <nav class="side-nav" aria-label="Project">
            <ul>
              {PROJECT_PAGES.map(([label, path, icon]) => {
                const href = `${base}${path}`;
                return <NavItem key={label} label={label} href={href} icon={icon} current={current(href)} />;
              })}
            </ul>
          </nav>
        ) : null}
        <nav class="side-nav team-nav" aria-label="Team">
          <ul>
            {teamPages.map(([label, href, icon]) => (
              <NavItem key={href} label={label} href={href} icon={icon} current={loc.path === href || (href === '/projects' && loc.path === '/')} />
            ))}
          </ul>
        </nav>
      </div>
      <div class="sidebar-foot">
        <div class="person" title={`${who} · ${session?.scope ?? ''}`}>
          <span class="avatar" aria-hidden="true">
            {who.slice(0, 1).toUpperCase()}
          </span>
          <span class="label person-text">
            <span class="person-name">{who}</span>
            <span class="muted small" data-scope={session?.scope}>
              {session?.scope}
            </span>
          </span>
        </div>
        <div class="foot-actions">
          <button type="button" class="icon-button sign-out" title="Sign out" onClick={props.onSignOut}>
            <Icon name="signout" />
            <span class="label">Sign out</span>
          </button>
          <button type="button" class="icon-button collapse-toggle" aria-expanded={props.collapsed ? 'false' : 'true'} aria-controls={props.id} title={props.collapsed ? 'Expand sidebar' : 'Collapse sidebar'} onClick={() => props.onCollapse(!props.collapsed)}>
            <Icon name={props.collapsed ? 'expand' : 'collapse'} />
            <span class="visually-hidden">Collapse sidebar</span>
          </button>
        </div>
      </div>
    </aside>
  );
}

/**
 * A brand's mark: a coloured circle with its initial. The favicon component (the
 * /favicons/{domain} proxy) takes this place once it lands: pass `domain` through to it.
 */
export function BrandMark({ name }: { name: string; domain?: string | null }) {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return (
    // The initial is drawn by CSS (attr()), so it is no part of a button's visible name.
    <span class="brand-mark" aria-hidden="true" data-hue={hash % 6} data-initial={name.trim().slice(0, 1).toUpperCase() || '·'} />
  );
}

const domainOf = (url: string | null | undefined) => {
  try {
    return url ? new URL(url).hostname : null;
  } catch {
    return null;
  }
};

/**
 * The project switcher: a button that opens a menu of the team's projects (the current one
 * checked), "All projects" and "New project" at its end. Arrow keys, Home and End move, Enter
 * opens, Esc and Tab close it (Esc gives focus back to the button).
 */
function ProjectSwitcher({ projectId }: { projectId: string | null }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const focusOnOpen = useRef<'current' | 'last' | null>(null);
  const project = useQuery({ queryKey: ['project', projectId], queryFn: () => get<ProjectDetail>(`/projects/${projectId}`), enabled: !!projectId });
  // The list is asked when the menu opens (or the pointer comes near), not on every page.
  const [wanted, setWanted] = useState(false);
  const list = useQuery({ queryKey: ['projects'], queryFn: () => get<Project[]>('/projects'), enabled: wanted || open });
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];
  // Focus goes to the current project (or the last item) once the list is there; while it
  // loads, the menu itself holds focus, and a key pressed meanwhile is not overruled later.
  // A layout effect, so focus moves in the commit that draws the menu.
  useLayoutEffect(() => {
    if (!open || !focusOnOpen.current) return;
    if (list.isPending) {
      menu.current?.focus();
      return;
    }
    const all = items();
    const target = focusOnOpen.current === 'last' ? all[all.length - 1] : (all.find((item) => item.getAttribute('aria-checked') === 'true') ?? all[0]);
    const untouched = document.activeElement === menu.current || !menu.current?.contains(document.activeElement);
    if (untouched) target?.focus();
    focusOnOpen.current = null;
  }, [open, list.isPending]);
  useEffect(() => {
    if (!open) return;
    const away = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);
  const show = (focus: 'current' | 'last') => {
    focusOnOpen.current = focus;
    setOpen(true);
  };
  const close = (giveBack: boolean) => {
    focusOnOpen.current = null;
    setOpen(false);
    if (giveBack) button.current?.focus();
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    let next = -1;
    if (event.key === 'ArrowDown') next = (at + 1) % all.length;
    else if (event.key === 'ArrowUp') next = (at - 1 + all.length) % all.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = all.length - 1;
    else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
      return;
    } else if (event.key === 'Tab') {
      close(false);
      return;
    } else if (event.key === ' ') {
      event.preventDefault();
      (document.activeElement as HTMLElement)?.click();
      return;
    }
    if (next < 0) return;
    event.preventDefault();
    all[next]?.focus();
  };
  const name = projectId ? (project.data?.name ?? 'Project') : 'All projects';
  const go = (href: string) => (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    close(false);
    navigate(href);
  };
  return (
    <div class="switcher">
      <button
        ref={button}
        type="button"
        class="switcher-button"
        aria-haspopup="menu"
        aria-expanded={open ? 'true' : 'false'}
        aria-controls="project-switcher"
        onPointerEnter={() => setWanted(true)}
        onFocus={() => setWanted(true)}
        onClick={() => (open ? close(false) : show('current'))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            show(event.key === 'ArrowUp' ? 'last' : 'current');
          }
        }}
      >
        {projectId ? <BrandMark name={name} domain={domainOf(project.data?.website_url)} /> : <span class="brand-mark sightline" aria-hidden="true" />}
        <span class="label switcher-name">{name}</span>
        <span class="visually-hidden">, switch project</span>
        <span class="label switcher-chevron">
          <Icon name="chevrons" />
        </span>
      </button>
      {open ? (
        <div ref={menu} id="project-switcher" class="switcher-menu" role="menu" aria-label="Projects" tabIndex={-1} onKeyDown={onMenuKey}>
          {list.isPending ? (
            <span class="switcher-loading muted small" role="status">
              Loading projects…
            </span>
          ) : null}
          {(list.data ?? []).map((item) => {
            const href = `/projects/${item.id}`;
            const checked = item.id === projectId;
            return (
              <a key={item.id} href={href} role="menuitemradio" aria-checked={checked ? 'true' : 'false'} tabIndex={-1} data-project={item.id} onClick={go(href)}>
                <BrandMark name={item.name} domain={domainOf(item.website_url)} />
                <span class="switcher-item-name">{item.name}</span>
                {checked ? <Icon name="check" /> : null}
              </a>
            );
          })}
          {list.error ? (
            <span class="error small" role="alert">
              The projects could not be loaded; open the list instead.
            </span>
          ) : null}
          <hr />
          <a href="/projects" role="menuitem" tabIndex={-1} onClick={go('/projects')}>
            <Icon name="projects" />
            All projects
          </a>
          <a href="/projects?new=1" role="menuitem" tabIndex={-1} onClick={go('/projects?new=1')}>
            <Icon name="plus" />
            New project
          </a>
        </div>
      ) : null}
    </div>
  );
}
