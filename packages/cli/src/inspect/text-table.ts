/** Two-column text: labels padded to one width, so values line up. */
export type Row = readonly [label: string, value: string];

export function formatRows(rows: readonly Row[], indent = ''): string {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return rows
    .map(([label, value]) => `${indent}${label.padEnd(width)}  ${value}`.trimEnd())
    .map((line) => `${line}\n`)
    .join('');
}
