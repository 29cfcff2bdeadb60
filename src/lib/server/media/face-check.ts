import sharp from 'sharp';
import type { FaceBox } from './face-detector.ts';
import type { FaceProblem } from './photo-rules.ts';

/**
 * The kiosk's face check on an uploaded selfie, while the guest still stands at the camera and can
 * retake: exactly one face, big enough to draw from and wholly inside the frame. The pipeline gets
 * that face (with room for hair and chin) as `face_crop.jpg`. Face boxes are the detector's tight
 * ones (forehead to chin, ear to ear), in the photo's own pixels.
 */
export type { FaceProblem };

export type FaceVerdict = { ok: true; face: FaceBox } | { ok: false; problem: FaceProblem };

export interface FaceFinder {
	findFaces(image: Buffer, options?: { maxSide?: number }): Promise<FaceBox[]>;
}

/** A face narrower than this share of the photo's shorter side: the guest stands too far away. */
export const MIN_FACE_SHARE = 0.12;
/** …or narrower than this many pixels whatever the photo's size: too little face to draw from. */
export const MIN_FACE_PIXELS = 96;
/**
 * A second face at least this share of the largest one's width is another guest in the picture;
 * smaller ones are people far behind (about twice as far away or more), which the drawing ignores.
 */
export const OTHER_PERSON_SHARE = 0.5;
/** How far (share of its own size) the face box may run past the frame before it counts as cut off. */
const EDGE_SLACK = 0.03;
/** face_crop.jpg is a square this many face sizes wide, centred on the face. */
const CROP_FACE_SIZES = 2;
const FACE_CROP_MAX_SIDE = 768;
/**
 * The detector looks at a copy this long: a face of MIN_FACE_SHARE is still ~45 px there, far above
 * the detector's floor, and the small copy keeps the check fast and the web process's memory low.
 */
const DETECTION_SIDE = 512;

export function judgeFaces(faces: readonly FaceBox[], width: number, height: number): FaceVerdict {
	const [face, ...others] = [...faces].sort((a, b) => b.width - a.width);
	if (!face) return { ok: false, problem: 'no_face' };
	if (others.some((other) => other.width >= face.width * OTHER_PERSON_SHARE))
		return { ok: false, problem: 'several_faces' };
	if (face.width < Math.max(MIN_FACE_PIXELS, Math.min(width, height) * MIN_FACE_SHARE))
		return { ok: false, problem: 'face_too_small' };
	if (isCutOff(face, width, height)) return { ok: false, problem: 'face_cut_off' };
	return { ok: true, face };
}

/** The detector's box runs past the frame when part of the face is outside the photo. */
function isCutOff(face: FaceBox, width: number, height: number): boolean {
	const slackX = face.width * EDGE_SLACK;
	const slackY = face.height * EDGE_SLACK;
	return (
		face.x < -slackX ||
		face.y < -slackY ||
		face.x + face.width > width + slackX ||
		face.y + face.height > height + slackY
	);
}

export interface Region {
	left: number;
	top: number;
	width: number;
	height: number;
}

/**
 * The square around the face: CROP_FACE_SIZES face sizes wide, centred on it, shrunk (never below
 * the face itself) when the face is near an edge, and only then moved to stay inside the photo.
 */
export function faceCropRegion(face: FaceBox, width: number, height: number): Region {
	const size = Math.max(face.width, face.height);
	const cx = face.x + face.width / 2;
	const cy = face.y + face.height / 2;
	const room = 2 * Math.min(cx, width - cx, cy, height - cy);
	const side = Math.max(1, Math.round(Math.min(size * CROP_FACE_SIZES, Math.max(room, size), width, height)));
	const left = clamp(Math.round(cx - side / 2), 0, width - side);
	const top = clamp(Math.round(cy - side / 2), 0, height - side);
	return { left, top, width: side, height: side };
}

export async function cropFace(selfie: Buffer, region: Region): Promise<Buffer> {
	return sharp(selfie)
		.extract(region)
		.resize(FACE_CROP_MAX_SIDE, FACE_CROP_MAX_SIDE, { withoutEnlargement: true })
		.jpeg({ quality: 88 })
		.toBuffer();
}

export type SelfieFaceCheck =
	{ ok: true; face: FaceBox; faceCrop: Buffer } | { ok: false; problem: FaceProblem; faces: number };

/** Finds the faces on a normalised selfie, judges them and, when the photo passes, crops the face. */
export async function checkSelfieFace(
	selfie: { selfie: Buffer; width: number; height: number },
	detector: FaceFinder
): Promise<SelfieFaceCheck> {
	const faces = await detector.findFaces(selfie.selfie, { maxSide: DETECTION_SIDE });
	const verdict = judgeFaces(faces, selfie.width, selfie.height);
	if (!verdict.ok) return { ok: false, problem: verdict.problem, faces: faces.length };
	const faceCrop = await cropFace(selfie.selfie, faceCropRegion(verdict.face, selfie.width, selfie.height));
	return { ok: true, face: verdict.face, faceCrop };
}

function clamp(value: number, min: number, max: number): number {
	return Math.min(max, Math.max(min, value));
}
