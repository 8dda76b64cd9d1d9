/** `YYYY-MM` of a date in UTC: the credit month. */
export function utcMonth(d: Date = new Date()): string {
  return d.toISOString().slice(0, 7);
}

/** `YYYY-MM-DD` of a date in UTC. */
export function utcDay(d: Date = new Date()): string {
  return d.toISOString().slice(0, 10);
}

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a time in ms. */
export const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Midnight UTC starting a `YYYY-MM-DD` day, in ms. */
export const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Midnight UTC starting a time's week (Monday), in ms. */
export const mondayOf = (t: number) => t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS;

/** Monday (UTC) of a `YYYY-MM-DD` day's week: the key of the weekly rollups. */
export function weekOf(day: string): string {
  return utcDay(new Date(mondayOf(Date.parse(`${day}T00:00:00Z`))));
}
