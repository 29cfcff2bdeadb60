import { describe, expect, it } from 'vitest';
import { faceCropRegion, judgeFaces } from './face-check.ts';

const face = (x: number, y: number, width: number, height = width * 1.15) => ({ x, y, width, height, score: 0.99 });

describe('judgeFaces (a 1280×960 selfie)', () => {
	const judge = (...faces: ReturnType<typeof face>[]) => {
		const verdict = judgeFaces(faces, 1280, 960);
		return verdict.ok ? 'ok' : verdict.problem;
	};

	it('takes one big face well inside the frame', () => {
		expect(judge(face(480, 200, 310))).toBe('ok');
	});

	it('names each problem', () => {
		expect(judge()).toBe('no_face');
		expect(judge(face(200, 250, 260), face(780, 250, 250))).toBe('several_faces');
		expect(judge(face(600, 340, 70))).toBe('face_too_small');
		expect(judge(face(-100, 250, 290))).toBe('face_cut_off');
		expect(judge(face(500, -110, 290))).toBe('face_cut_off');
		expect(judge(face(1100, 300, 290))).toBe('face_cut_off');
		expect(judge(face(500, 700, 290))).toBe('face_cut_off');
	});

	it('ignores a much smaller face far behind the guest', () => {
		expect(judge(face(420, 240, 310), face(1030, 220, 100))).toBe('ok');
		expect(judge(face(420, 240, 310), face(1000, 220, 160))).toBe('several_faces');
	});

	it('measures "too far" against the shorter side, with a pixel floor for small photos', () => {
		// 12 % of 960 = 115.2 px
		expect(judge(face(600, 340, 114))).toBe('face_too_small');
		expect(judge(face(600, 340, 116))).toBe('ok');
		const small = judgeFaces([face(300, 150, 90)], 640, 480);
		expect(small.ok ? 'ok' : small.problem).toBe('face_too_small');
	});

	it('lets a mesh box that grazes the edge by a few pixels pass', () => {
		expect(judge(face(-5, 250, 290))).toBe('ok');
		expect(judge(face(-12, 250, 290))).toBe('face_cut_off');
	});
});

describe('faceCropRegion', () => {
	it('is a square two face sizes wide, centred on the face', () => {
		const region = faceCropRegion(face(300, 300, 200, 230), 1280, 960);
		expect(region).toEqual({ left: 170, top: 185, width: 460, height: 460 });
	});

	it('shrinks to stay centred near an edge, never below the face, and only then moves inside', () => {
		expect(faceCropRegion(face(40, 300, 200, 200), 1280, 960)).toEqual({ left: 0, top: 260, width: 280, height: 280 });
		expect(faceCropRegion(face(0, 300, 200, 200), 1280, 960)).toEqual({ left: 0, top: 300, width: 200, height: 200 });
		expect(faceCropRegion(face(-50, 300, 200, 200), 1280, 960)).toEqual({ left: 0, top: 300, width: 200, height: 200 });
	});

	it('never leaves a photo smaller than the square', () => {
		expect(faceCropRegion(face(10, 10, 100, 100), 90, 120)).toEqual({ left: 0, top: 15, width: 90, height: 90 });
	});
});
