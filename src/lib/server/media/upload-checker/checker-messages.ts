import { z } from 'zod';
import { FACE_PROBLEMS, PHOTO_PROBLEMS } from '../photo-rules.ts';

/**
 * What the web process and its upload checker process say to each other over the IPC channel
 * (Node's `advanced` serialization: Buffers cross as bytes, not as base64 text). Each side
 * parses what it receives: the other end is another process and may be a different build.
 */
const bytes = z
	.custom<Uint8Array>((value) => value instanceof Uint8Array, 'expected bytes')
	.transform((b) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength)));

export const checkRequestSchema = z.object({ id: z.number().int(), photo: bytes });
export type CheckRequest = z.input<typeof checkRequestSchema>;

const faceBox = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number(), score: z.number() });

const uploadCheck = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('passed'),
		selfie: bytes,
		width: z.number().int(),
		height: z.number().int(),
		face: faceBox,
		faceCrop: bytes
	}),
	z.object({ kind: z.literal('rejected'), problem: z.enum(PHOTO_PROBLEMS), detail: z.string() }),
	z.object({ kind: z.literal('no_usable_face'), problem: z.enum(FACE_PROBLEMS), faces: z.number().int() })
]);

export const checkerMessageSchema = z.discriminatedUnion('kind', [
	/** The detector is loaded: requests are answered from now on. */
	z.object({ kind: z.literal('ready') }),
	z.object({ kind: z.literal('answer'), id: z.number().int(), check: uploadCheck }),
	/** The check threw (not a refusal of the photo): that one request fails. */
	z.object({ kind: z.literal('error'), id: z.number().int(), message: z.string() })
]);
export type CheckerMessage = z.input<typeof checkerMessageSchema>;
