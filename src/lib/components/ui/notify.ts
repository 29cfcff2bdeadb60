import { toast } from 'svelte-sonner';
import { describeCallError } from '$lib/components/console/trpc-client';

/**
 * Tells the operator how an action went, as a toast (the Toaster in the console layout shows it):
 * `done` in green for what worked, `failed` in red with the server's reason in plain words. A
 * form's validation error belongs next to its field (FormField `error`), not here.
 */
export const notify = {
	done(text: string, detail?: string): void {
		toast.success(text, { description: detail });
	},
	failed(error: unknown, what?: string): void {
		const reason = typeof error === 'string' ? error : describeCallError(error);
		toast.error(what ?? reason, { description: what ? reason : undefined });
	},
	info(text: string, detail?: string): void {
		toast.info(text, { description: detail });
	}
};
