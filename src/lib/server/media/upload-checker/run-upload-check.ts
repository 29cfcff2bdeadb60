import { checkSelfieFace, type FaceFinder } from '../face-check.ts';
import { normalisePhoto, PhotoRejected } from '../photo-normalise.ts';
import type { UploadCheck, UploadChecker } from './upload-check.ts';

/** The upload check itself, in whatever process calls it (the checker process, or in-process). */
export async function runUploadCheck(bytes: Buffer, detector: () => Promise<FaceFinder>): Promise<UploadCheck> {
	const photo = await normalisePhoto(bytes).catch((error: unknown) => {
		if (error instanceof PhotoRejected) return error;
		throw error;
	});
	if (photo instanceof PhotoRejected) return { kind: 'rejected', problem: photo.problem, detail: photo.message };
	const checked = await checkSelfieFace(photo, await detector());
	if (!checked.ok) return { kind: 'no_usable_face', problem: checked.problem, faces: checked.faces };
	return {
		kind: 'passed',
		selfie: photo.selfie,
		width: photo.width,
		height: photo.height,
		face: checked.face,
		faceCrop: checked.faceCrop
	};
}

/** The check in this process (unit tests, and the benchmark's baseline): the detector loads on first use and stays. */
export function inProcessUploadChecker(detector: () => Promise<FaceFinder>): UploadChecker {
	return {
		check: (photo) => runUploadCheck(photo, detector),
		warmUp: () => void detector().catch(() => undefined)
	};
}
