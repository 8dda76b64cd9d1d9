/** `YYYY-MM` of a date in UTC: the credit month. */
export function utcMonth(d: Date = new Date()): string {
  return d.toISOString().slice(0, 7);
}

/** `YYYY-MM-DD` of a date in UTC. */
export function utcDay(d: Date = new Date()): string {
  return d.toISOString().slice(0, 10);
}

/** Monday (UTC) of a `YYYY-MM-DD` day's week: the key of the weekly rollups. */
export function weekOf(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  return utcDay(new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * 86_400_000));
}
