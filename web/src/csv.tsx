// CSV of any table or chart, made in the browser from the very data shown (RFC 4180 quoting;
// a cell starting with = + - @ is prefixed with ' so a spreadsheet never runs it as a formula).

export type Cell = string | number | boolean | null | undefined;

function cell(value: Cell): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: Cell[][]): string {
  return `${[header, ...rows].map((cells) => cells.map(cell).join(',')).join('\r\n')}\r\n`;
}

export function downloadCsv(filename: string, header: string[], rows: Cell[][]): void {
  const blob = new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function CsvButton(props: { filename: string; header: string[]; rows: () => Cell[][]; label?: string }) {
  return (
    <button type="button" class="secondary small" onClick={() => downloadCsv(props.filename, props.header, props.rows())}>
      {props.label ?? 'Download CSV'}
    </button>
  );
}
