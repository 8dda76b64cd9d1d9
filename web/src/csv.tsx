// CSV of any table or chart, made in the browser from the very data shown (RFC 4180 quoting;
// a cell starting with = + - @ is prefixed with ' so a spreadsheet never runs it as a formula).

export type Cell = string | number | boolean | null | undefined;

function cell(v: Cell): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: string[], rows: Cell[][]): string {
  return `${[header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

export function downloadCsv(filename: string, header: string[], rows: Cell[][]): void {
  const blob = new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function CsvButton(props: { filename: string; header: string[]; rows: () => Cell[][]; label?: string }) {
  return (
    <button type="button" class="secondary small" onClick={() => downloadCsv(props.filename, props.header, props.rows())}>
      {props.label ?? 'Download CSV'}
    </button>
  );
}
