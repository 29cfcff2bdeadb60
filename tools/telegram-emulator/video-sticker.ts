import { spawn } from 'node:child_process';
import { BotApiError, TELEGRAM_ERRORS } from './errors.ts';
import type { ImageInfo } from './validation.ts';

// Video stickers (InputSticker `format: "video"`), checked as Telegram documents them.
//
// https://core.telegram.org/stickers#video-requirements (as crawled by MarshalX/telegram-crawler,
// data/web/corefork.telegram.org/stickers.html):
//   "For stickers, one side must be exactly 512 pixels in size – the other side can be 512 pixels
//    or less. · Video duration must not exceed 3 seconds. · Frame rate can be up to 30 FPS. ·
//    Video should be looped for optimal user experience. · Video size should not exceed 256 KB. ·
//    Video must be in .WEBM format encoded with the VP9 codec. · Video must have no audio stream."
// https://core.telegram.org/bots/api#inputsticker: format "video" for a .WEBM video; "Animated and
// video stickers can't be uploaded via HTTP URL."
// TDLib's get_max_sticker_file_size (td/telegram/StickerFormat.cpp) agrees: WEBM 1 << 18 bytes.
// Only TDLib checks anything before Telegram's servers do (size, URL); everything else is theirs.
//
// "Should be looped" cannot be checked from the file, so it is not.

export const VIDEO_LIMITS = {
	side: 512,
	bytes: 256 * 1024,
	durationSeconds: 3,
	framesPerSecond: 30
} as const;

export interface VideoInfo extends ImageInfo {
	durationSeconds: number;
	framesPerSecond: number;
}

interface ProbeStream {
	codec_type?: string;
	codec_name?: string;
	width?: number;
	height?: number;
	avg_frame_rate?: string;
	r_frame_rate?: string;
}

interface ProbePacket {
	codec_type?: string;
	pts_time?: string;
	duration_time?: string;
}

interface ProbeResult {
	streams?: ProbeStream[];
	packets?: ProbePacket[];
	format?: { duration?: string };
}

/** A WEBM file is EBML (1A 45 DF A3) whose DocType is "webm" — Matroska (.mkv) is not. */
export function isWebmContainer(bytes: Buffer): boolean {
	if (bytes.length < 8 || bytes.readUInt32BE(0) !== 0x1a45dfa3) return false;
	const header = bytes.subarray(0, Math.min(bytes.length, 64));
	const docType = header.indexOf(Buffer.from([0x42, 0x82]));
	return docType > 0 && header.subarray(docType + 3, docType + 7).toString('latin1') === 'webm';
}

/** Refused when the emulator cannot look inside a video: accepting it unchecked would hide bugs. */
function ffprobeMissing(path: string): BotApiError {
	return new BotApiError(
		500,
		`Internal Server Error: the Telegram emulator needs ffprobe to check video stickers and could not run "${path}"` +
			' (install ffmpeg, or set EMULATOR_FFPROBE to its path)'
	);
}

/** Runs ffprobe on the bytes (piped to stdin: no temporary file) and parses its JSON. */
export function probeVideo(ffprobePath: string, bytes: Buffer): Promise<ProbeResult | undefined> {
	const args = [
		'-v',
		'error',
		'-print_format',
		'json',
		'-show_format',
		'-show_streams',
		'-show_packets',
		'-i',
		'pipe:0'
	];
	return new Promise((resolve, reject) => {
		const child = spawn(ffprobePath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
		const chunks: Buffer[] = [];
		child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
		child.on('error', () => reject(ffprobeMissing(ffprobePath)));
		child.on('close', (code) => {
			if (code !== 0) return resolve(undefined); // not a video ffprobe can read
			try {
				resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ProbeResult);
			} catch {
				resolve(undefined);
			}
		});
		// ffprobe may stop reading once it has seen enough; a closed pipe is not an error here.
		child.stdin.on('error', () => undefined);
		child.stdin.end(bytes);
	});
}

/** Whether ffprobe runs at all (main.ts says so at start-up). */
export async function ffprobeAvailable(ffprobePath: string): Promise<boolean> {
	try {
		await probeVideo(ffprobePath, Buffer.alloc(0));
		return true;
	} catch {
		return false;
	}
}

function frameRate(stream: ProbeStream): number {
	for (const rate of [stream.avg_frame_rate, stream.r_frame_rate]) {
		const [num, den] = (rate ?? '').split('/').map(Number);
		if (num && den) return num / den;
	}
	return 0;
}

/**
 * The container's duration; a WEBM written to a pipe (not seekable) has none in its header, so then
 * where the last video frame ends, which is what a player (and Telegram's decoder) sees.
 */
function durationOf(probe: ProbeResult): number | undefined {
	const fromFormat = Number(probe.format?.duration);
	if (Number.isFinite(fromFormat) && fromFormat > 0) return fromFormat;
	const ends = (probe.packets ?? [])
		.filter((packet) => packet.codec_type === 'video')
		.map((packet) => Number(packet.pts_time) + (Number(packet.duration_time) || 0))
		.filter(Number.isFinite);
	return ends.length > 0 ? Math.max(...ends) : undefined;
}

/**
 * A video sticker: each documented requirement, in the order Telegram meets them. The size comes
 * first: for a new upload the Bot API server (TDLib) refuses a big file before sending it on, with
 * "file is too big"; a file already on Telegram (a file_id) is refused by Telegram's servers, with
 * STICKER_VIDEO_BIG. See TELEGRAM_ERRORS.stickerVideo* (errors.ts) for where each wording comes from.
 */
export async function inspectVideoSticker(
	bytes: Buffer,
	ffprobePath: string,
	source: 'upload' | 'file_id'
): Promise<VideoInfo> {
	if (bytes.length > VIDEO_LIMITS.bytes) {
		throw source === 'upload' ? TELEGRAM_ERRORS.fileTooBig() : TELEGRAM_ERRORS.stickerVideoBig();
	}
	if (!isWebmContainer(bytes)) throw TELEGRAM_ERRORS.stickerVideoNoWebm();
	const probe = await probeVideo(ffprobePath, bytes);
	const streams = probe?.streams ?? [];
	const video = streams.find((stream) => stream.codec_type === 'video');
	if (!probe || !video || video.codec_name !== 'vp9') throw TELEGRAM_ERRORS.stickerVideoNoWebm();
	if (streams.some((stream) => stream.codec_type === 'audio')) throw TELEGRAM_ERRORS.stickerVideoHasAudio();
	const width = video.width ?? 0;
	const height = video.height ?? 0;
	if (Math.max(width, height) !== VIDEO_LIMITS.side) throw TELEGRAM_ERRORS.stickerVideoDimensions();
	const durationSeconds = durationOf(probe);
	if (durationSeconds === undefined) throw TELEGRAM_ERRORS.stickerVideoNoWebm();
	if (durationSeconds > VIDEO_LIMITS.durationSeconds) throw TELEGRAM_ERRORS.stickerVideoLong();
	const framesPerSecond = frameRate(video);
	if (framesPerSecond > VIDEO_LIMITS.framesPerSecond) throw TELEGRAM_ERRORS.stickerVideoFrameRate();
	return { format: 'webm', mime: 'video/webm', width, height, durationSeconds, framesPerSecond };
}
