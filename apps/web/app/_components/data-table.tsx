import { Fragment, type HTMLAttributes, type ReactNode, type TdHTMLAttributes } from "react";

/** Attributes a row or cell may carry: test ids and data-* hooks the tests and styles read. */
type DataAttributes = { [name: `data-${string}`]: string | number | undefined };

export type Column<Row> = {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The cell is the row's header (`<th scope="row">`). */
  rowHeader?: boolean;
  cellProps?: (row: Row) => TdHTMLAttributes<HTMLTableCellElement> & DataAttributes;
};

type Body<Row> =
  | {
      columns: readonly Column<Row>[];
      rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & DataAttributes;
    }
  | {
      /** For rows that render themselves (several `<tr>`s, or hooks of their own): the headers, and the rows. */
      headers: readonly ReactNode[];
      renderRow: (row: Row) => ReactNode;
    };

/**
 * The dashboard's table: `<div className="table-wrap"><table>`, a header row of `scope="col"`
 * cells, then a row per item. `emptyRow` fills the body with one full-width cell while there are
 * no rows; pages that show an empty text instead do so before rendering the table (QueryView).
 */
export function DataTable<Row>(
  props: {
    rows: readonly Row[];
    rowKey: (row: Row) => string;
    caption?: ReactNode;
    testId?: string;
    emptyRow?: ReactNode;
    /** What follows the table inside its scrolling box, e.g. a chart's legend. */
    legend?: ReactNode;
  } & Body<Row>,
) {
  const { rows, rowKey, caption, testId, emptyRow, legend } = props;
  const headers = "columns" in props ? props.columns.map((column) => column.header) : props.headers;
  return (
    // Focusable and named: a table wider than the screen scrolls in this box by keyboard too (WCAG 2.1.1).
    <div className="table-wrap" tabIndex={0} role="region" aria-label={typeof caption === "string" ? caption : "Table"}>
      <table data-testid={testId}>
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {headers.map((header, i) => (
              <th key={i} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && emptyRow !== undefined ? (
            <tr>
              <td colSpan={headers.length}>{emptyRow}</td>
            </tr>
          ) : "columns" in props ? (
            rows.map((row) => (
              <tr key={rowKey(row)} {...props.rowProps?.(row)}>
                {props.columns.map((column, i) =>
                  column.rowHeader ? (
                    <th key={i} scope="row" {...column.cellProps?.(row)}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={i} {...column.cellProps?.(row)}>
                      {column.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            ))
          ) : (
            rows.map((row) => <Fragment key={rowKey(row)}>{props.renderRow(row)}</Fragment>)
          )}
        </tbody>
      </table>
      {legend}
    </div>
  );
}
