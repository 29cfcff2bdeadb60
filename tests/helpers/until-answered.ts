/**
 * A refused upload is answered 413 while the client is still writing; the server then closes with
 * unread bytes, which is a TCP reset that may drop the 413 on its way (EPIPE or ECONNRESET on the
 * client). The upload is refused either way, but a test that wants to read the status sends it
 * again. How often the reset wins depends on the machine's load, so up to ten tries.
 */
export async function untilAnswered<T>(send: () => Promise<T>, tries = 10): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await send();
		} catch (error) {
			if (!isConnectionReset(error) || attempt === tries) throw error;
		}
	}
}

/** Node's errors carry the code; Playwright's request errors only say it in the message. */
function isConnectionReset(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException).code ?? '';
	const message = error instanceof Error ? error.message : '';
	return ['EPIPE', 'ECONNRESET'].includes(code) || /\b(EPIPE|ECONNRESET)\b/.test(message);
}
