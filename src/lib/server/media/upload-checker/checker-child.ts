import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { getFaceDetector, SAMPLE_FACE_PATH } from '../face-detector.ts';
import { checkRequestSchema, type CheckerMessage } from './checker-messages.ts';
import { runUploadCheck } from './run-upload-check.ts';
import { errorText } from '../../errors/error-text.ts';

/**
 * The upload checker process: started by the web process (child-checker.ts) with an IPC channel,
 * it loads the face detector, warms it up, says `ready`, then normalises and checks one selfie at a time as
 * asked. It keeps no state between photos and writes no files. It ends when the channel closes —
 * the web process retired it after its idle time, stopped, or died (even by SIGKILL: the kernel
 * closes the socket) — so it never outlives the web process.
 */
if (!process.send) {
	console.error('the upload checker runs only as a child of the web process (it needs an IPC channel)');
	process.exit(2);
}

// One photo at a time in a process that lives minutes: libvips' operation cache would only keep
// decoded pixels of photos that never come back.
sharp.cache(false);

process.on('disconnect', () => process.exit(0));

const send = (message: CheckerMessage) => process.send?.(message);

let queue: Promise<unknown> = Promise.resolve();

process.on('message', (raw: unknown) => {
	const request = checkRequestSchema.safeParse(raw);
	if (!request.success) return;
	const { id, photo } = request.data;
	queue = queue.then(async () => {
		try {
			send({ kind: 'answer', id, check: await runUploadCheck(photo, getFaceDetector) });
		} catch (error) {
			send({ kind: 'error', id, message: errorText(error, 1000) });
		}
	});
});

await getFaceDetector();
await warmUp();
send({ kind: 'ready' });

/**
 * The first check with a face in it compiles the detector's and the mesh's wasm kernels and starts
 * libvips (a few hundred ms): paid here, on the package's sample face, not by the first guest.
 * Without the sample the first guest pays it; nothing else changes.
 */
async function warmUp(): Promise<void> {
	try {
		await runUploadCheck(await readFile(SAMPLE_FACE_PATH), getFaceDetector);
	} catch {
		// no sample photo in this installation
	}
}
