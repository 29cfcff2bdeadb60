import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { photoWithFaces } from '../integration/guest-photos.ts';

/**
 * What Chromium's fake camera shows. By default (`--use-fake-device-for-media-stream`) a test
 * pattern with no face in it; `--use-file-for-fake-video-capture=<file.y4m>` makes it show a file
 * instead, looped. This writes a one-frame Y4M (raw YUV 4:2:0) of a guest standing in front of the
 * kiosk: one real face, big and in the middle, as the upload's face check wants it.
 */
const WIDTH = 640;
const HEIGHT = 480;

export async function writeGuestCameraFeed(dir: string): Promise<string> {
	const frame = await photoWithFaces(WIDTH, HEIGHT, [{ side: HEIGHT * 0.6, cx: WIDTH / 2, cy: HEIGHT * 0.45 }]);
	const rgb = await sharp(frame).removeAlpha().raw().toBuffer();
	const file = path.join(dir, `guest-face-${WIDTH}x${HEIGHT}.y4m`);
	await mkdir(dir, { recursive: true });
	const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F30:1 Ip A1:1 C420jpeg\nFRAME\n`, 'latin1');
	await writeFile(file, Buffer.concat([header, toI420(rgb, WIDTH, HEIGHT)]));
	return file;
}

/** Full-range BT.601 (JPEG's) conversion: a Y plane, then U and V averaged over 2×2 pixels. */
function toI420(rgb: Buffer, width: number, height: number): Buffer {
	const y = Buffer.alloc(width * height);
	const u = Buffer.alloc((width / 2) * (height / 2));
	const v = Buffer.alloc((width / 2) * (height / 2));
	const at = (px: number, py: number, c: number) => rgb[(py * width + px) * 3 + c] ?? 0;
	for (let py = 0; py < height; py++) {
		for (let px = 0; px < width; px++) {
			y[py * width + px] = clampByte(0.299 * at(px, py, 0) + 0.587 * at(px, py, 1) + 0.114 * at(px, py, 2));
		}
	}
	for (let py = 0; py < height; py += 2) {
		for (let px = 0; px < width; px += 2) {
			const mean = (c: number) => (at(px, py, c) + at(px + 1, py, c) + at(px, py + 1, c) + at(px + 1, py + 1, c)) / 4;
			const [r, g, b] = [mean(0), mean(1), mean(2)];
			const i = (py / 2) * (width / 2) + px / 2;
			u[i] = clampByte(-0.168736 * r - 0.331264 * g + 0.5 * b + 128);
			v[i] = clampByte(0.5 * r - 0.418688 * g - 0.081312 * b + 128);
		}
	}
	return Buffer.concat([y, u, v]);
}

function clampByte(value: number): number {
	return Math.max(0, Math.min(255, Math.round(value)));
}
