import { AlertDialog } from 'bits-ui';
export { default as Content } from './AlertDialogContent.svelte';
export { default as Title } from './AlertDialogTitle.svelte';
export { default as Description } from './AlertDialogDescription.svelte';
export { default as Footer } from './AlertDialogFooter.svelte';
export { default as Action } from './AlertDialogAction.svelte';
export { default as Cancel } from './AlertDialogCancel.svelte';
export const Root = AlertDialog.Root;
export const Trigger = AlertDialog.Trigger;
