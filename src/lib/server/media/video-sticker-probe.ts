import { runTool } from './video-tool.ts';

/**
 * Telegram's video sticker rules (Bot API, "Video requirements for stickers"): WEBM with VP9, one
 * side exactly 512 px and the other ≤ 512, ≤ 3 s, ≤ 30 fps, ≤ 256 KB, no audio stream. We also
 * require an alpha channel (a sticker without one shows a black box around the figure).
 */
export const VIDEO_STICKER_LIMITS = { side: 512, maxSeconds: 3, maxFps: 30, maxBytes: 256 * 1024 } as const;

export interface VideoStickerFacts {
	codec: string | null;
	width: number;
	height: number;
	seconds: number;
	fps: number;
	bytes: number;
	alpha: boolean;
	audioStreams: number;
	container: string | null;
}

export interface VideoStickerCheck {
	ok: boolean;
	/** What breaks the rules, one short phrase each (empty when ok). */
	problems: string[];
	facts: VideoStickerFacts;
}

interface ProbeJson {
	streams?: {
		codec_type?: string;
		codec_name?: string;
		width?: number;
		height?: number;
		avg_frame_rate?: string;
		r_frame_rate?: string;
		pix_fmt?: string;
		tags?: Record<string, string>;
	}[];
	format?: { format_name?: string; duration?: string; size?: string };
}

/** Reads a WEBM file with ffprobe and checks it against the rules (limits: a test may lower maxBytes). */
export async function checkVideoSticker(
	ffprobe: string,
	file: string,
	options: { signal: AbortSignal; timeoutMs: number; maxBytes?: number }
): Promise<VideoStickerCheck> {
	const { stdout } = await runTool(
		ffprobe,
		['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file],
		options
	);
	const facts = readFacts(JSON.parse(stdout.toString('utf8')) as ProbeJson);
	return { ...judge(facts, options.maxBytes ?? VIDEO_STICKER_LIMITS.maxBytes), facts };
}

export function readFacts(probe: ProbeJson): VideoStickerFacts {
	const streams = probe.streams ?? [];
	const video = streams.find((s) => s.codec_type === 'video');
	const tags = Object.fromEntries(Object.entries(video?.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
	return {
		codec: video?.codec_name ?? null,
		width: video?.width ?? 0,
		height: video?.height ?? 0,
		seconds: Number(probe.format?.duration ?? NaN),
		fps: rate(video?.avg_frame_rate) || rate(video?.r_frame_rate),
		bytes: Number(probe.format?.size ?? NaN),
		// VP9's alpha travels beside the picture (ffprobe shows yuv420p plus the WebM tag alpha_mode=1).
		alpha: tags['alpha_mode'] === '1' || (video?.pix_fmt ?? '').startsWith('yuva'),
		audioStreams: streams.filter((s) => s.codec_type === 'audio').length,
		container: probe.format?.format_name ?? null
	};
}

export function judge(facts: VideoStickerFacts, maxBytes: number): { ok: boolean; problems: string[] } {
	const { side, maxSeconds, maxFps } = VIDEO_STICKER_LIMITS;
	const problems: string[] = [];
	if (!(facts.container ?? '').includes('webm')) problems.push(`container ${facts.container ?? 'unknown'}, not WEBM`);
	if (facts.codec !== 'vp9') problems.push(`codec ${facts.codec ?? 'none'}, not VP9`);
	const sides = [facts.width, facts.height];
	if (Math.max(...sides) !== side || Math.min(...sides) < 1)
		problems.push(`${facts.width}×${facts.height} px, one side must be exactly ${side} and the other ≤ ${side}`);
	if (!(facts.seconds > 0 && facts.seconds <= maxSeconds)) problems.push(`${facts.seconds} s, over ${maxSeconds} s`);
	if (!(facts.fps > 0 && facts.fps <= maxFps)) problems.push(`${facts.fps} fps, over ${maxFps}`);
	if (!(facts.bytes <= maxBytes)) problems.push(`${facts.bytes} bytes, over ${maxBytes}`);
	if (!facts.alpha) problems.push('no alpha channel (the background would not be transparent)');
	if (facts.audioStreams > 0) problems.push(`${facts.audioStreams} audio stream(s)`);
	return { ok: problems.length === 0, problems };
}

function rate(text: string | undefined): number {
	const [num, den] = (text ?? '').split('/').map(Number);
	if (!num || !Number.isFinite(num)) return 0;
	return den ? num / den : num;
}
