export { default as Table } from './Table.svelte';
export { default as TableHead } from './TableHead.svelte';
export { default as TableCell } from './TableCell.svelte';
export { default as TableRow } from './TableRow.svelte';
export { default as TableEmpty } from './TableEmpty.svelte';
export { default as TableRowHead } from './TableRowHead.svelte';
export { shownOnClass, type ShownOn } from './shown-on';
