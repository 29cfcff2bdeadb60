/**
 * A signal for one Gemini call that follows the job's signal, and stops following it once the call
 * is over. The SDK keeps its abort listener on the signal it is given after a successful call (it
 * leaves the attempt armed while the caller reads the body), so handing it the job's own signal left
 * one listener per call on it for the rest of the job: after ten calls Node warns of a leak
 * (MaxListenersExceededWarning), and a job redrawn figure by figure makes twenty. The SDK's
 * listener now sits on this short-lived signal, which is dropped with the call.
 */
export function callSignal(job: AbortSignal | undefined): { signal: AbortSignal | undefined; release: () => void } {
	if (!job) return { signal: undefined, release: () => {} };
	const call = new AbortController();
	if (job.aborted) {
		call.abort(job.reason);
		return { signal: call.signal, release: () => {} };
	}
	const follow = () => call.abort(job.reason);
	job.addEventListener('abort', follow, { once: true });
	return { signal: call.signal, release: () => job.removeEventListener('abort', follow) };
}
