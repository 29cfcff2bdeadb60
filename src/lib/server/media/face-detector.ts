import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Offline face finding with @vladmandic/human on the wasm backend (no native build, no network:
 * the models ship in the package). Used to place the guest in offline drawings and, whatever the
 * provider, to count the people on every sticker before delivery. One detector per process: the models load once
 * (~0.2 s) and calls are serialised, because the wasm backend is single-threaded anyway.
 */
export interface FaceBox {
	x: number;
	y: number;
	width: number;
	height: number;
	score: number;
}

// The package's `exports` map would pull tfjs-node (which cannot install here): load the wasm build by path.
const require = createRequire(import.meta.url);
// Both packages resolve to a file inside their dist/ folder (resolving does not load it).
const HUMAN_DIR = path.dirname(path.dirname(require.resolve('@vladmandic/human')));
const WASM_DIR = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep;
const MODELS_URL = `file://${path.join(HUMAN_DIR, 'models')}/`;
/** A photo of one real face that ships with the package: a first detection on it warms the models up. */
export const SAMPLE_FACE_PATH = path.join(HUMAN_DIR, 'assets', 'screenshot-faceid.jpg');
/** Detection is done on a copy no larger than this: faces on stickers and selfies stay well above the detector's floor. */
const MAX_SIDE = 800;

export interface FindFacesOptions {
	/** What shows through transparent pixels (stickers): white unless said. */
	background?: { r: number; g: number; b: number };
	/** Longest side of the copy the detector looks at; smaller is faster and leaves less memory behind. */
	maxSide?: number;
}

type HumanInstance = {
	load(): Promise<void>;
	detect(
		input: unknown
	): Promise<{ face: { box: [number, number, number, number]; mesh?: number[][]; score: number }[] }>;
	tf: {
		tensor4d(values: Int32Array, shape: [number, number, number, number], dtype: 'int32'): unknown;
		dispose(t: unknown): void;
		io: { registerLoadRouter(router: (url: string | string[]) => unknown): void };
	};
};

let shared: Promise<FaceDetector> | undefined;

/** The process-wide detector, loaded on first use. */
export function getFaceDetector(): Promise<FaceDetector> {
	shared ??= FaceDetector.load();
	return shared;
}

async function loadHuman(): Promise<HumanInstance> {
	const module = require(path.join(HUMAN_DIR, 'dist', 'human.node-wasm.js')) as {
		Human: new (config: object) => HumanInstance;
	};
	const human = new module.Human({
		backend: 'wasm',
		wasmPath: WASM_DIR,
		modelBasePath: MODELS_URL,
		warmup: 'none',
		debug: false,
		// Off: human reuses the previous image's faces when two inputs look alike, which would make
		// one sticker's verdict depend on the one checked before it.
		cacheSensitivity: 0,
		face: {
			enabled: true,
			detector: { maxDetected: 10, rotation: false, minConfidence: 0.35, return: false },
			mesh: { enabled: true },
			iris: { enabled: false },
			description: { enabled: false },
			emotion: { enabled: false },
			antispoof: { enabled: false },
			liveness: { enabled: false }
		},
		body: { enabled: false },
		hand: { enabled: false },
		object: { enabled: false },
		gesture: { enabled: false },
		segmentation: { enabled: false }
	});
	human.tf.io.registerLoadRouter(loadModelFromDisk);
	await human.load();
	return human;
}

type ProcessEvent = 'uncaughtException' | 'unhandledRejection';
/** A process-wide handler as Node hands it back from process.listeners(). */
type ProcessListener = (...args: never[]) => unknown;

const WATCHED_EVENTS: ProcessEvent[] = ['uncaughtException', 'unhandledRejection'];

function listenersOf(event: ProcessEvent): ProcessListener[] {
	// Node's typings overload listeners() per event name; both of ours return plain functions.
	return event === 'uncaughtException'
		? process.listeners('uncaughtException')
		: process.listeners('unhandledRejection');
}

function processHandlers(): Map<ProcessEvent, ProcessListener[]> {
	return new Map(WATCHED_EVENTS.map((event) => [event, listenersOf(event)]));
}

/**
 * The tfjs wasm backend (emscripten) installs process-wide handlers that rethrow every uncaught
 * error and print the whole wasm module source with it, flooding the worker's log. The worker has
 * its own error handling, so the handlers the library added are taken off again.
 */
function removeHandlersAddedSince(before: Map<ProcessEvent, ProcessListener[]>): void {
	for (const event of WATCHED_EVENTS) {
		for (const listener of listenersOf(event)) {
			if (!before.get(event)?.includes(listener))
				process.removeListener(event, listener as (...args: unknown[]) => void);
		}
	}
}

export class FaceDetector {
	#queue: Promise<unknown> = Promise.resolve();
	private constructor(private readonly human: HumanInstance) {}

	static async load(): Promise<FaceDetector> {
		const before = processHandlers();
		const human = await loadHuman();
		removeHandlersAddedSince(before);
		return new FaceDetector(human);
	}

	/** Faces in an encoded image (any format sharp reads), in the image's own pixel coordinates. */
	async findFaces(image: Buffer, options: FindFacesOptions = {}): Promise<FaceBox[]> {
		const run = this.#queue.then(() =>
			this.#detect(image, options.background ?? { r: 255, g: 255, b: 255 }, options.maxSide ?? MAX_SIDE)
		);
		this.#queue = run.catch(() => undefined);
		return run;
	}

	async #detect(image: Buffer, background: { r: number; g: number; b: number }, maxSide: number): Promise<FaceBox[]> {
		const meta = await sharp(image).metadata();
		const scale = Math.min(1, maxSide / Math.max(meta.width ?? 1, meta.height ?? 1));
		const { data, info } = await sharp(image)
			.rotate()
			.flatten({ background })
			.resize({ width: Math.round((meta.width ?? 1) * scale) })
			.removeAlpha()
			.raw()
			.toBuffer({ resolveWithObject: true });
		const tensor = this.human.tf.tensor4d(new Int32Array(data), [1, info.height, info.width, 3], 'int32');
		try {
			const result = await this.human.detect(tensor);
			return result.face.map((f) => tightBox(f.box, f.mesh, f.score, scale));
		} finally {
			this.human.tf.dispose(tensor);
		}
	}
}

/**
 * The detector's box is padded for its own mesh step; the mesh points (forehead to chin, ear to
 * ear) give the face's real extent, which is what placing a portrait needs.
 */
function tightBox(
	box: [number, number, number, number],
	mesh: number[][] | undefined,
	score: number,
	scale: number
): FaceBox {
	let [x, y, width, height] = box;
	if (mesh && mesh.length > 10) {
		const xs = mesh.map((p) => p[0] ?? 0);
		const ys = mesh.map((p) => p[1] ?? 0);
		x = Math.min(...xs);
		y = Math.min(...ys);
		width = Math.max(...xs) - x;
		height = Math.max(...ys) - y;
	}
	return { x: x / scale, y: y / scale, width: width / scale, height: height / scale, score };
}

/** Without tfjs-node there is no file:// loader: read model JSON and weight shards with fs. */
function loadModelFromDisk(url: string | string[]): unknown {
	if (typeof url !== 'string' || !url.startsWith('file://')) return null;
	const file = url.slice('file://'.length);
	return {
		load: async () => {
			const json = JSON.parse(readFileSync(file, 'utf8')) as {
				modelTopology: unknown;
				format?: string;
				generatedBy?: string;
				convertedBy?: string;
				weightsManifest: { paths: string[]; weights: unknown[] }[];
			};
			const shards = json.weightsManifest.flatMap((group) =>
				group.paths.map((p) => readFileSync(path.join(path.dirname(file), p)))
			);
			const weights = Buffer.concat(shards);
			return {
				modelTopology: json.modelTopology,
				format: json.format,
				generatedBy: json.generatedBy,
				convertedBy: json.convertedBy,
				weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
				weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.length)
			};
		}
	};
}
