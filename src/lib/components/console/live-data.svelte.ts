import { goto } from '$app/navigation';
import { describeCallError } from './trpc-client';

// onData takes `any` on purpose: the page names the server's snapshot type, and tRPC's inferred
// output differs from it only in spelling `unknown` fields as optional.
interface Handlers {
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	onData: (value: any) => void;
	onError: (error: unknown) => void;
	onStarted?: () => void;
}
type Start = (handlers: Handlers) => { unsubscribe: () => void };

/**
 * The state of one live view: the latest snapshot the server pushed, whether the stream is up,
 * and a sentence when it failed. `follow` is called inside `$effect` so a changed input (a search
 * term, a job id) closes the old stream and opens a new one. The server ends a view with
 * UNAUTHORIZED once its session is over (signed out elsewhere, expired, removed, role changed):
 * then the page goes to sign-in, which comes back here afterwards.
 */
export class LiveData<T> {
	data = $state<T | undefined>(undefined);
	error = $state<string | null>(null);
	connected = $state(false);
	signedOut = $state(false);

	follow(start: Start): () => void {
		this.connected = false;
		const subscription = start({
			onStarted: () => {
				this.connected = true;
			},
			onData: (value) => {
				this.data = value as T;
				this.error = null;
				this.connected = true;
			},
			onError: (error) => {
				this.connected = false;
				this.signedOut = (error as { data?: { code?: string } })?.data?.code === 'UNAUTHORIZED';
				this.error = describeCallError(error);
				if (this.signedOut) void goto(`/console/login?next=${encodeURIComponent(location.pathname)}`);
			}
		});
		return () => subscription.unsubscribe();
	}
}
