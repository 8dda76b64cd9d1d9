// The dashboard's icons: small inline SVGs (16 px, stroke in currentColor), one file, no
// icon font and nothing fetched. Each is decorative: the link or button beside it has the name.

const paths: Record<string, string> = {
  overview: 'M2.5 13.5h11M4 11V7.5M7 11V4.5M10 11V6.5M13 11V3',
  answers: 'M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z',
  prompts: 'M3 3.5h10M3 6.5h10M3 9.5h6M3 12.5h4',
  competitors: 'M5.5 7a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM1.5 13c0-2.2 1.8-4 4-4s4 1.8 4 4M11 7a1.8 1.8 0 1 0 0-3.6M12 9.2c1.5.5 2.5 2 2.5 3.8',
  sources: 'M6.5 9.5l3-3M7 4.5l1-1a2.8 2.8 0 0 1 4 4l-1 1M9 11.5l-1 1a2.8 2.8 0 0 1-4-4l1-1',
  crawlers: 'M8 2.5v2M4.5 6.5h7v5a3.5 3.5 0 0 1-7 0zM2 8h2.5M11.5 8H14M2 12h2.5M11.5 12H14M6 2.5l1 2M10 2.5l-1 2',
  audit: 'M7 12.5a5 5 0 1 0 0-10 5 5 0 0 0 0 10zM10.6 10.6l3 3M5 7.5l1.5 1.5 3-3',
  actions: 'M2.5 4l1.2 1.2L6 3M2.5 8.5l1.2 1.2L6 7.5M2.5 13l1.2 1.2L6 12M8 4.5h5.5M8 9h5.5M8 13.5h5.5',
  alerts: 'M4 11V7.5a4 4 0 0 1 8 0V11l1 1.5H3zM6.5 14h3',
  settings: 'M8 10a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM8 1.8v1.7M8 12.5v1.7M1.8 8h1.7M12.5 8h1.7M3.6 3.6l1.2 1.2M11.2 11.2l1.2 1.2M3.6 12.4l1.2-1.2M11.2 4.8l1.2-1.2',
  team: 'M6 7a2.2 2.2 0 1 0 0-4.4A2.2 2.2 0 0 0 6 7zM1.5 13.5c0-2.5 2-4.5 4.5-4.5s4.5 2 4.5 4.5M11 4a1.8 1.8 0 0 1 0 3.5M12.5 9.3c1.2.6 2 1.8 2 3.2',
  log: 'M4 1.5h6l2.5 2.5v10.5H4zM6 6.5h4.5M6 9h4.5M6 11.5h3',
  projects: 'M2 4.5h4l1.5 1.5H14v7.5H2z',
  plus: 'M8 3v10M3 8h10',
  check: 'M3 8.5l3 3 7-7',
  chevrons: 'M5 6l3-3 3 3M5 10l3 3 3-3',
  collapse: 'M2.5 2.5h11v11h-11zM6 2.5v11M10.5 6L9 8l1.5 2',
  expand: 'M2.5 2.5h11v11h-11zM6 2.5v11M9 6l1.5 2L9 10',
  menu: 'M2.5 4h11M2.5 8h11M2.5 12h11',
  close: 'M4 4l8 8M12 4l-8 8',
  share: 'M8 10V2.5M5 5.5l3-3 3 3M3 8.5v5h10v-5',
  download: 'M8 2.5V10M5 7l3 3 3-3M3 11.5v2h10v-2',
  signout: 'M6 2.5H3v11h3M10 5l3 3-3 3M13 8H6',
  calendar: 'M2.5 3.5h11v10h-11zM2.5 6.5h11M5.5 2v3M10.5 2v3',
};

export type IconName = keyof typeof paths;

export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  return (
    <svg class="icon" width={size} height={size} viewBox="0 0 16 16" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">
      <path d={paths[name]} />
    </svg>
  );
}
