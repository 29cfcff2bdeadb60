import type { FaceBox } from '../face-detector.ts';
import type { FaceProblem, PhotoProblem } from '../photo-rules.ts';

/**
 * The image work of one kiosk selfie upload: validate and normalise the photo, then the face
 * check and the face crop. The web process hands it to the upload checker process
 * (child-checker.ts), so the detector's wasm heap and the decoder's memory of 12 MP photos live
 * and die with that process; unit tests may run it in-process (run-upload-check.ts) behind the
 * same interface. Nothing here loads sharp: the web process imports this.
 */
export type UploadCheck =
	| { kind: 'passed'; selfie: Buffer; width: number; height: number; face: FaceBox; faceCrop: Buffer }
	| { kind: 'rejected'; problem: PhotoProblem; detail: string }
	| { kind: 'no_usable_face'; problem: FaceProblem; faces: number };

export interface UploadChecker {
	/** Rejects with UploadCheckFailed when the check itself could not be made (not when the photo is refused). */
	check(photo: Buffer): Promise<UploadCheck>;
	/** Gets ready for an upload that is likely to come soon (a kiosk session started); never throws. */
	warmUp(): void;
}

export type CheckFailure = 'start_failed' | 'crashed' | 'timed_out' | 'failed';

/** The check could not be made (its process did not start, died, hung or failed): that upload fails, the next one tries afresh. */
export class UploadCheckFailed extends Error {
	constructor(
		readonly reason: CheckFailure,
		detail: string
	) {
		super(detail);
		this.name = 'UploadCheckFailed';
	}
}
