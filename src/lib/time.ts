/** `YYYY-MM` of a date in UTC: the credit month. */
export function utcMonth(d: Date = new Date()): string {
  return d.toISOString().slice(0, 7);
}

/** `YYYY-MM-DD` of a date in UTC. */
export function utcDay(d: Date = new Date()): string {
  return d.toISOString().slice(0, 10);
}
