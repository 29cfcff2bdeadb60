import { describe, expect, it } from 'vitest';
import { checkerMessageSchema, checkRequestSchema } from './checker-messages.ts';

describe('the upload checker’s messages', () => {
	it('gives Buffers back whether the bytes cross as a Buffer or as a bare Uint8Array', () => {
		const bytes = new Uint8Array([1, 2, 3, 4]).subarray(1);
		const request = checkRequestSchema.parse({ id: 7, photo: bytes });
		expect([Buffer.isBuffer(request.photo), [...request.photo]]).toEqual([true, [2, 3, 4]]);
		const face = { x: 1, y: 2, width: 300, height: 340, score: 0.9 };
		const answer = checkerMessageSchema.parse({
			kind: 'answer',
			id: 7,
			check: { kind: 'passed', selfie: Buffer.from([9]), width: 10, height: 20, face, faceCrop: new Uint8Array([8]) }
		});
		if (answer.kind !== 'answer' || answer.check.kind !== 'passed') throw new Error('not an answer');
		expect([Buffer.isBuffer(answer.check.faceCrop), answer.check.faceCrop[0], answer.check.selfie[0]]).toEqual([
			true,
			8,
			9
		]);
	});

	it('refuses what is not one of its messages: unknown kinds, problems or text for bytes', () => {
		const refused = [
			{ kind: 'answer', id: 1, check: { kind: 'rejected', problem: 'too_blurry', detail: '' } },
			{ kind: 'answer', id: 1, check: { kind: 'no_usable_face', problem: 'no_face' } },
			{
				kind: 'answer',
				id: 1,
				check: { kind: 'passed', selfie: 'base64…', width: 1, height: 1, face: {}, faceCrop: 'x' }
			},
			{ kind: 'hello' },
			'ready'
		];
		for (const message of refused) expect(checkerMessageSchema.safeParse(message).success).toBe(false);
		expect(
			checkerMessageSchema.parse({
				kind: 'answer',
				id: 1,
				check: { kind: 'no_usable_face', problem: 'several_faces', faces: 2 }
			})
		).toMatchObject({ check: { faces: 2 } });
		expect(checkRequestSchema.safeParse({ id: 1, photo: 'bytes' }).success).toBe(false);
	});
});
