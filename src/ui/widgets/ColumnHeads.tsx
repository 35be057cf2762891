import type { ReactNode } from 'react';

/**
 * A table's head: one row of column headers, each `scope="col"` so a screen reader names the
 * column of every cell it reads. A `false`, `null` or `undefined` entry is a column this table
 * leaves out (the histogram's private bins without privatization), so callers can write
 * `cond && label`.
 */
export function ColumnHeads({ labels }: { readonly labels: readonly ReactNode[] }) {
  return (
    <thead>
      <tr>
        {labels
          .filter((label) => label !== false && label != null)
          .map((label, i) => (
            <th key={i} scope="col">
              {label}
            </th>
          ))}
      </tr>
    </thead>
  );
}
