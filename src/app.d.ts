// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
	namespace App {
		interface Error {
			message: string;
		}
		interface Locals {
			/** The signed-in console operator, resolved from the session cookie in hooks.server.ts. */
			operator: import('$lib/server/auth/roles').OperatorIdentity | null;
			/** The client's address (operators are staff; audit_log stores it). */
			clientIp: string | null;
			/** Set by handleError when the database stayed locked past busy_timeout (answered 503). */
			databaseBusy?: boolean;
		}
	}
}

export {};
