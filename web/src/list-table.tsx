import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import './list-table.css';

// The one list table of the dashboard (issue 26): every page's rows × columns go through
// here, so each gets the same markup (thead/tbody, th scope, a row header where a row has a
// name), the same sideways-scrolling box that the keyboard can reach and that is named
// (axe's scrollable-region-focusable; WCAG 2.1.1), numbers right-aligned in tabular
// figures, one empty sentence, and, where a page sorts, sortable headers that are buttons
// with aria-sort. Cells are whatever the page renders: figures are formatted by the page.

/** A cell's extra attributes (data-value for tests and CSV, data-label, colSpan …). */
type CellAttributes = Record<string, string | number | boolean | undefined>;

export interface Column<Row> {
  /** Unique within the table; the sort state names it. */
  key: string;
  header: ComponentChildren;
  cell: (row: Row) => ComponentChildren;
  /** Right-aligned, tabular figures (th and td get class "num"). */
  numeric?: boolean;
  /** Makes the column sortable: the value rows are ordered by (null last when ascending). */
  sortValue?: (row: Row) => string | number | null | undefined;
  /** The direction of the first click on this header: numbers start high, text at A. */
  firstSort?: 'ascending' | 'descending';
  /** Class on this column's body cells (a row header's th, the tds): mono, wrap, row-actions … */
  className?: string;
  /** Class on the column's header cell. */
  headerClass?: string;
  /** A tooltip on the header (what the column holds, its range). */
  headerTitle?: string;
  /** Attributes of the row's cell in this column. */
  cellAttributes?: (row: Row) => CellAttributes;
}

export interface SortState {
  key: string;
  desc: boolean;
}

export interface ListTableProps<Row> {
  /** data-table="…" on the <table>: tests and styles find a table by it. */
  name: string;
  /** The accessible name of the scroll region (and the table's caption unless `caption` says otherwise). */
  label: string;
  /** A visually hidden caption; defaults to `label`. */
  caption?: string;
  columns: Array<Column<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** The key of the column whose cells are row headers (<th scope="row">). */
  rowHeader?: string;
  /** A row set apart (the own brand): class "highlight" on its <tr>. */
  highlight?: (row: Row) => boolean;
  /** Classes and data-* attributes of a row. */
  rowClass?: (row: Row) => string | undefined;
  rowAttributes?: (row: Row) => Record<string, string | number | undefined>;
  /**
   * A row whose cells after the row header are one message (loading, an error): return it
   * and it spans the remaining columns.
   */
  rowMessage?: (row: Row) => ComponentChildren | null | undefined;
  /** The one sentence shown instead of the table when there is no row; nothing when absent. */
  empty?: string;
  /** Class(es) on the <table>, kept for the page's own styles. */
  tableClass?: string;
  /** The first order of a sortable table (uncontrolled). */
  defaultSort?: SortState;
  /** Controlled sort: the page keeps the state (its CSV follows the same order, see sortRows). */
  sort?: SortState;
  onSort?: (sort: SortState) => void;
}

/** Rows in the order of `sort` (a stable sort; equal values keep the given order). */
export function sortRows<Row>(rows: readonly Row[], columns: Array<Column<Row>>, sort: SortState | undefined): Row[] {
  const column = sort ? columns.find((candidate) => candidate.key === sort.key) : undefined;
  const value = column?.sortValue;
  if (!sort || !value) return [...rows];
  return [...rows].sort((a, b) => {
    const valueA = value(a) ?? null;
    const valueB = value(b) ?? null;
    const order = valueA === valueB ? 0 : valueA === null ? 1 : valueB === null ? -1 : valueA < valueB ? -1 : 1;
    return sort.desc ? -order : order;
  });
}

const classes = (...names: Array<string | false | null | undefined>) => names.filter(Boolean).join(' ') || undefined;

export function ListTable<Row>(props: ListTableProps<Row>) {
  const [ownSort, setOwnSort] = useState<SortState | undefined>(props.defaultSort);
  const sort = props.sort ?? ownSort;
  if (props.rows.length === 0) {
    return props.empty ? (
      <p class="empty" data-empty-table={props.name}>
        {props.empty}
      </p>
    ) : null;
  }
  const rows = sortRows(props.rows, props.columns, sort);
  const sortBy = (column: Column<Row>) => {
    const desc = sort?.key === column.key ? !sort.desc : (column.firstSort ?? (column.numeric ? 'descending' : 'ascending')) === 'descending';
    const next = { key: column.key, desc };
    setOwnSort(next);
    props.onSort?.(next);
  };
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls sideways must be reachable by keyboard
    // biome-ignore lint/a11y/useSemanticElements: a named region around one table, not a page section
    <div class="table-wrap list-table-wrap" tabIndex={0} role="region" aria-label={props.label}>
      <table class={classes('list-table', props.tableClass)} data-table={props.name}>
        <caption class="visually-hidden">{props.caption ?? props.label}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => {
              const sorted = sort?.key === column.key;
              return (
                <th
                  key={column.key}
                  scope="col"
                  class={classes(column.numeric && 'num', column.headerClass)}
                  title={column.headerTitle}
                  aria-sort={column.sortValue ? (sorted ? (sort.desc ? 'descending' : 'ascending') : 'none') : undefined}
                >
                  {column.sortValue ? (
                    <button type="button" class="sort" data-sort={column.key} onClick={() => sortBy(column)}>
                      {column.header}
                      <span class="sort-mark" aria-hidden="true">
                        {sorted ? (sort.desc ? ' ▼' : ' ▲') : ''}
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const message = props.rowMessage?.(row);
            const hasMessage = message !== null && message !== undefined;
            let cells = props.columns;
            if (hasMessage) cells = props.columns.filter((column) => column.key === props.rowHeader);
            return (
              <tr key={props.rowKey(row)} class={classes(props.rowClass?.(row), props.highlight?.(row) && 'highlight')} {...props.rowAttributes?.(row)}>
                {cells.map((column) => {
                  const Cell = column.key === props.rowHeader ? 'th' : 'td';
                  return (
                    <Cell key={column.key} scope={Cell === 'th' ? 'row' : undefined} class={classes(column.numeric && 'num', column.className)} {...column.cellAttributes?.(row)}>
                      {column.cell(row)}
                    </Cell>
                  );
                })}
                {hasMessage ? <td colSpan={props.columns.length - cells.length}>{message}</td> : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
