import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { data, get } from '../api';
import { navigate } from '../router';
import { useCanWrite } from '../session';
import { EngineChoice, ErrorBox, Field, Loading, Section, enginesOf } from '../ui';
import { DEFAULT_PROVIDERS } from '../window';
import { TopBar } from '../top-bar';
import type { ProjectDetail } from './projects';

export function ProjectSettings({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const projectQuery = useQuery({ queryKey: ['project', projectId], queryFn: () => get<ProjectDetail>(`/projects/${projectId}`) });
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
  const projectInfo = projectQuery.data;
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (field: string) => String(form.get(field) ?? '').trim();
    save.mutate({
      name: text('name'),
      brand_name: text('brand_name'),
      website_url: text('website_url'),
      brand_aliases: text('aliases').split(',').map((alias) => alias.trim()).filter(Boolean),
      language: text('language') || null,
      location: text('location') || null,
      samples_per_run: Number(text('samples_per_run') || 1),
      sampling: text('sampling') || 'fixed',
      sampling_margin: Number(text('sampling_margin') || 5),
      providers: enginesOf(form),
    });
  };
  return (
    <>
      <TopBar title="Project settings" />
      {projectQuery.isPending ? <Loading shape="lines" /> : null}
      <ErrorBox error={projectQuery.error} />
      {projectInfo ? (
        <Section title="Brand and market">
          <form onSubmit={submit} class="grid-form" aria-label="Project settings" key={projectInfo.id + projectInfo.name + projectInfo.brand_aliases.join() + (projectInfo.providers ?? []).join() + projectInfo.sampling + projectInfo.sampling_margin}>
            <fieldset disabled={!canWrite}>
              <Field label="Project name">
                <input name="name" defaultValue={projectInfo.name} required maxLength={200} />
              </Field>
              <Field label="Brand name">
                <input name="brand_name" defaultValue={projectInfo.brand_name ?? ''} required maxLength={200} />
              </Field>
              <Field label="Website">
                <input name="website_url" type="url" defaultValue={projectInfo.website_url ?? ''} required />
              </Field>
              <Field label="Brand aliases" hint="Comma-separated; matched like the brand name.">
                <input name="aliases" defaultValue={projectInfo.brand_aliases.join(', ')} />
              </Field>
              <Field label="Language">
                <input name="language" defaultValue={projectInfo.language ?? ''} />
              </Field>
              <Field label="Location">
                <input name="location" defaultValue={projectInfo.location ?? ''} />
              </Field>
              <Field label="Samples per run" hint="Answers per prompt, provider and day (the plan sets the maximum).">
                <input name="samples_per_run" type="number" min={1} max={5} defaultValue={String(projectInfo.samples_per_run ?? 1)} />
              </Field>
              <Field label="Where the samples go" hint="Adaptive spends the same credits on the prompts whose interval is wider than the margin.">
                <select name="sampling" defaultValue={projectInfo.sampling}>
                  <option value="fixed">The same for every prompt</option>
                  <option value="adaptive">Adaptive: where intervals are widest</option>
                </select>
              </Field>
              <Field label="Margin (± points)" hint="The 95% interval adaptive sampling aims each prompt at, 1 to 25 points.">
                <input name="sampling_margin" type="number" min={1} max={25} step={0.1} defaultValue={String(projectInfo.sampling_margin ?? 5)} />
              </Field>
              <EngineChoice checked={projectInfo.providers ?? DEFAULT_PROVIDERS} legend="Engines tracked" />
              <button type="submit" disabled={save.isPending}>
                Save
              </button>
            </fieldset>
          </form>
          {save.isSuccess ? <p role="status">Saved.</p> : null}
          <ErrorBox error={save.error} />
        </Section>
      ) : null}
      {projectInfo ? (
        <Section title="Delete the project">
          <p>Deletes the project and everything under it: prompts, answers, competitors, actions.</p>
          <button type="button" class="danger" disabled={!canWrite || remove.isPending} onClick={() => confirm(`Delete ${projectInfo.name} and all its data?`) && remove.mutate()}>
            Delete project
          </button>
          <ErrorBox error={remove.error} />
        </Section>
      ) : null}
    </>
  );
}
