// Layer rules of docs/architecture.md, checked in CI (`npm run deps`). Dependencies point one
// way: lib ← config ← store / ports ← analysis ← job catalog ← domain services
// (src/modules, src/context.ts) ← background work (src/collection and the background/ folder
// of a module: sending deliveries, running workflows) ← job registry and queue ← surfaces
// (HTTP with its routes in src/http/routes, dashboard, MCP) ← entry points (runtime, main,
// cli, cluster). Tests may import anything.
const SURFACES = '^src/(http|mcp|dashboard)/|^src/server\\.ts$';
const ENTRY = '^src/(runtime|main|cli|cluster|logger|banner)[.]ts$';
const BACKGROUND = '^src/collection/|^src/modules/[^/]+/background/';
const QUEUE = '^src/jobs/(registry|queue|leases)\\.ts$';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import cycle anywhere in src/ (type imports included).', from: {}, to: { circular: true } },
    {
      name: 'lib-is-a-leaf',
      severity: 'error',
      comment: 'src/lib imports nothing else of the project.',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'config-on-lib',
      severity: 'error',
      from: { path: '^src/config\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(lib/|config\\.ts$)' },
    },
    {
      name: 'store-below-services',
      severity: 'error',
      comment: 'The store knows lib and config only.',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: '^src/(lib/|store/|config\\.ts$)' },
    },
    {
      name: 'ports-are-adapters',
      severity: 'error',
      comment: 'Adapters to the outside world know lib and config only.',
      from: { path: '^src/ports/' },
      to: { path: '^src/', pathNot: '^src/(lib/|ports/|config\\.ts$)' },
    },
    {
      name: 'analysis-is-pure',
      severity: 'error',
      comment: 'Answer analysis: text in, figures out; it reads provider types, nothing else.',
      from: { path: '^src/analysis/' },
      to: { path: '^src/', pathNot: '^src/(lib/|analysis/|ports/)' },
    },
    {
      name: 'job-catalog-is-a-leaf',
      severity: 'error',
      comment: 'Senders import catalog entries; the catalog never imports a handler.',
      from: { path: '^src/jobs/catalog\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(lib/|store/types\\.ts$|jobs/catalog\\.ts$)' },
    },
    {
      name: 'rollups-below-services',
      severity: 'error',
      comment: 'The rollups (src/modules/rollups) are the store of figures every service reads: they know lib, the store, analysis types and brand numbers, no other service.',
      from: { path: '^src/modules/rollups/' },
      to: { path: '^src/', pathNot: '^src/(lib/|store/|analysis/types\\.ts$|modules/rollups/|modules/projects/brands\\.ts$)' },
    },
    {
      name: 'services-below-background-and-surfaces',
      severity: 'error',
      comment: 'Domain services never import background work, the queue, a surface, a cache or the limiter.',
      from: { path: '^src/(modules/|context\\.ts$)', pathNot: BACKGROUND },
      to: { path: `${SURFACES}|${ENTRY}|${BACKGROUND}|${QUEUE}` },
    },
    {
      name: 'background-below-queue-and-surfaces',
      severity: 'error',
      from: { path: BACKGROUND },
      to: { path: `${SURFACES}|${ENTRY}|${QUEUE}` },
    },
    {
      name: 'queue-below-surfaces',
      severity: 'error',
      from: { path: QUEUE },
      to: { path: `${SURFACES}|${ENTRY}` },
    },
    {
      name: 'surfaces-below-entry-points',
      severity: 'error',
      from: { path: SURFACES },
      to: { path: ENTRY },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module nothing imports is dead code (entry points and tests aside).',
      from: { orphan: true, pathNot: `${ENTRY}|\\.test\\.ts$|\\.d\\.ts$|^src/analysis/fixtures/` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
