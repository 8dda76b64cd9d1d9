import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { data, get } from '../api';
import { navigate } from '../router';
import { useCanWrite } from '../session';
import { EngineChoice, ErrorBox, Field, Loading, Section, enginesOf } from '../ui';
import { DEFAULT_PROVIDERS } from '../window';
import type { ProjectDetail } from './projects';

export function ProjectSettings({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const q = useQuery({ queryKey: ['project', projectId], queryFn: () => get<ProjectDetail>(`/projects/${projectId}`) });
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => data<ProjectDetail>('PATCH', `/projects/${projectId}`, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['project', projectId] });
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  const remove = useMutation({
    mutationFn: () => data('DELETE', `/projects/${projectId}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      navigate('/projects');
    },
  });
  const p = q.data;
  const submit = (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const text = (k: string) => String(f.get(k) ?? '').trim();
    save.mutate({
      name: text('name'),
      brand_name: text('brand_name'),
      website_url: text('website_url'),
      brand_aliases: text('aliases').split(',').map((a) => a.trim()).filter(Boolean),
      language: text('language') || null,
      location: text('location') || null,
      samples_per_run: Number(text('samples_per_run') || 1),
      providers: enginesOf(f),
    });
  };
  return (
    <>
      <h1>Project settings</h1>
      {q.isPending ? <Loading /> : null}
      <ErrorBox error={q.error} />
      {p ? (
        <Section title="Brand and market">
          <form onSubmit={submit} class="grid-form" aria-label="Project settings" key={p.id + p.name + p.brand_aliases.join() + (p.providers ?? []).join()}>
            <fieldset disabled={!canWrite}>
              <Field label="Project name">
                <input name="name" defaultValue={p.name} required maxLength={200} />
              </Field>
              <Field label="Brand name">
                <input name="brand_name" defaultValue={p.brand_name ?? ''} required maxLength={200} />
              </Field>
              <Field label="Website">
                <input name="website_url" type="url" defaultValue={p.website_url ?? ''} required />
              </Field>
              <Field label="Brand aliases" hint="Comma-separated; matched like the brand name.">
                <input name="aliases" defaultValue={p.brand_aliases.join(', ')} />
              </Field>
              <Field label="Language">
                <input name="language" defaultValue={p.language ?? ''} />
              </Field>
              <Field label="Location">
                <input name="location" defaultValue={p.location ?? ''} />
              </Field>
              <Field label="Samples per run" hint="Answers per prompt, provider and day (the plan sets the maximum).">
                <input name="samples_per_run" type="number" min={1} max={5} defaultValue={String(p.samples_per_run ?? 1)} />
              </Field>
              <EngineChoice checked={p.providers ?? DEFAULT_PROVIDERS} legend="Engines tracked" />
              <button type="submit" disabled={save.isPending}>
                Save
              </button>
            </fieldset>
          </form>
          {save.isSuccess ? <p role="status">Saved.</p> : null}
          <ErrorBox error={save.error} />
        </Section>
      ) : null}
      {p ? (
        <Section title="Delete the project">
          <p>Deletes the project and everything under it: prompts, answers, competitors, actions.</p>
          <button type="button" class="danger" disabled={!canWrite || remove.isPending} onClick={() => confirm(`Delete ${p.name} and all its data?`) && remove.mutate()}>
            Delete project
          </button>
          <ErrorBox error={remove.error} />
        </Section>
      ) : null}
    </>
  );
}
