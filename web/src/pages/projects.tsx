import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data, Schemas } from '../api-types';
import { CsvButton } from '../csv';
import { Link } from '../router';
import { useCanWrite } from '../session';
import { ListTable } from '../list-table';
import { EngineChoice, ErrorBox, Field, Loading, Section, enginesOf } from '../ui';
import { DEFAULT_PROVIDERS } from '../window';

export type Project = Schemas['Project'];
export type ProjectDetail = Schemas['ProjectDetail'];

export function ProjectList() {
  const list = useQuery({ queryKey: ['projects'], queryFn: () => get<Project[]>('/projects') });
  const [created, setCreated] = useState<string | null>(null);
  return (
    <>
      <h1>Projects</h1>
      <Section
        title="Your projects"
        actions={
          list.data ? (
            <CsvButton
              filename="projects.csv"
              header={['id', 'name', 'brand_name', 'website_url', 'language', 'location', 'created_at']}
              rows={() => list.data.map((project) => [project.id, project.name, project.brand_name, project.website_url, project.language, project.location, project.created_at])}
            />
          ) : null
        }
      >
        {list.isPending ? <Loading /> : null}
        <ErrorBox error={list.error} />
        {list.data ? (
          <ListTable
            name="projects"
            label="Your projects"
            rows={list.data}
            rowKey={(project) => project.id}
            empty="No project yet: create the first one below."
            columns={[
              { key: 'project', header: 'Project', cell: (project) => <Link href={`/projects/${project.id}`}>{project.name}</Link> },
              { key: 'website', header: 'Website', cell: (project) => project.website_url },
              { key: 'language', header: 'Language', cell: (project) => project.language ?? '–' },
              { key: 'location', header: 'Location', cell: (project) => project.location ?? '–' },
              { key: 'created', header: 'Created', cell: (project) => project.created_at.slice(0, 10) },
            ]}
          />
        ) : null}
      </Section>
      <NewProject onCreated={setCreated} />
      {created ? <Bootstrap projectId={created} /> : null}
    </>
  );
}

function NewProject({ onCreated }: { onCreated: (id: string) => void }) {
  const canWrite = useCanWrite();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => data<Data<'/v1/account/projects', 'post'>>('POST', '/account/projects', body),
    onSuccess: (created) => {
      onCreated(created.project_id);
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const body: Record<string, unknown> = { providers: enginesOf(form) };
    for (const field of ['brand_name', 'brand_url', 'webhook_url', 'language', 'location']) {
      const value = String(form.get(field) ?? '').trim();
      if (value) body[field] = value;
    }
    create.mutate(body);
  };
  return (
    <Section title="New project">
      {!canWrite ? <p class="muted">This session is read-only (viewer): projects are created by an admin.</p> : null}
      <form onSubmit={submit} class="grid-form" aria-label="New project">
        <fieldset disabled={!canWrite}>
          <Field label="Brand">
            <input name="brand_name" required maxLength={200} placeholder="Acme" />
          </Field>
          <Field label="Website" hint="Sightline reads it to write the first prompts.">
            <input name="brand_url" type="url" required placeholder="https://acme.com" />
          </Field>
          <EngineChoice checked={DEFAULT_PROVIDERS} legend="AI engines to track" />
          <details class="advanced">
            <summary>Advanced</summary>
            <Field label="Callback URL" hint="Optional: Sightline also posts the setup result here.">
              <input name="webhook_url" type="url" placeholder="https://hooks.example.com/sightline" />
            </Field>
            <Field label="Language">
              <input name="language" placeholder="en" />
            </Field>
            <Field label="Location">
              <input name="location" placeholder="US" />
            </Field>
          </details>
          <button type="submit" disabled={create.isPending}>
            Create project
          </button>
        </fieldset>
      </form>
      <ErrorBox error={create.error} />
    </Section>
  );
}

/** The steps after creating a project (onboarding.tsx), loaded on first use: it renders answers (marked, DOMPurify). */
function Bootstrap({ projectId }: { projectId: string }) {
  const [Steps, setSteps] = useState<ComponentType<{ projectId: string }> | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  useEffect(() => {
    import('./onboarding').then((pageModule) => setSteps(() => pageModule.Onboarding), setFailed);
  }, []);
  if (failed) return <ErrorBox error={new Error('This part of the page could not be loaded: reload the page.')} />;
  return Steps ? <Steps projectId={projectId} /> : <Loading what="Starting" />;
}
