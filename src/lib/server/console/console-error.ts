/**
 * A console action refused for a reason the operator can fix or understand ("that job is not
 * failed"). Its message is shown as is; tRPC answers it as BAD_REQUEST (trpc/init.ts).
 */
export class ConsoleActionError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ConsoleActionError';
	}
}
