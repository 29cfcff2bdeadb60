import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { badRequest, BotApiError } from './errors.ts';
import { isRecord, type Params } from './params.ts';

// Bot API bodies come three ways: JSON, form-urlencoded and multipart. Multipart goes through
// busboy because grammY writes an unquoted `filename=` that Node's Request.formData() rejects.

export interface UploadedFile {
	fieldName: string;
	filename?: string;
	mimeType: string;
	bytes: Buffer;
}

export interface BotApiRequest {
	params: Params;
	/** Multipart file parts by part name: the `<id>` of an `attach://<id>` value, or a field name. */
	uploads: Map<string, UploadedFile>;
}

const MAX_BODY_BYTES = 50 * 1024 * 1024;

function tooLarge(): BotApiError {
	return new BotApiError(413, 'Request Entity Too Large');
}

export async function readBotApiRequest(req: IncomingMessage, url: URL): Promise<BotApiRequest> {
	const params: Params = Object.fromEntries(url.searchParams);
	const uploads = new Map<string, UploadedFile>();
	const type = (req.headers['content-type'] ?? '').toLowerCase();
	if (type.startsWith('multipart/form-data')) {
		await readMultipart(req, params, uploads);
	} else if (type.startsWith('application/json')) {
		const text = (await readRawBody(req)).toString('utf8');
		if (text.trim() !== '') Object.assign(params, parseJsonObject(text));
	} else if (type.startsWith('application/x-www-form-urlencoded')) {
		const text = (await readRawBody(req)).toString('utf8');
		Object.assign(params, Object.fromEntries(new URLSearchParams(text)));
	} else {
		await readRawBody(req);
	}
	return { params, uploads };
}

function parseJsonObject(text: string): Params {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		throw badRequest("can't parse JSON object");
	}
	if (!isRecord(parsed)) throw badRequest("can't parse JSON object");
	return parsed;
}

export async function readRawBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > limit) throw tooLarge();
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

function readMultipart(req: IncomingMessage, params: Params, uploads: Map<string, UploadedFile>): Promise<void> {
	return new Promise((resolve, reject) => {
		let parser: busboy.Busboy;
		try {
			parser = busboy({ headers: req.headers, limits: { fileSize: MAX_BODY_BYTES } });
		} catch {
			reject(badRequest("can't parse multipart/form-data body"));
			return;
		}
		const fileReads: Promise<void>[] = [];
		parser.on('field', (name, value) => {
			params[name] = value;
		});
		parser.on('file', (name, stream, info) => {
			fileReads.push(collectFile(name, stream, info, uploads));
		});
		parser.on('error', () => reject(badRequest("can't parse multipart/form-data body")));
		parser.on('close', () => {
			Promise.all(fileReads).then(() => resolve(), reject);
		});
		req.pipe(parser);
	});
}

async function collectFile(
	name: string,
	stream: NodeJS.ReadableStream & { truncated?: boolean },
	info: busboy.FileInfo,
	uploads: Map<string, UploadedFile>
): Promise<void> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	if (stream.truncated) throw tooLarge();
	uploads.set(name, {
		fieldName: name,
		filename: info.filename,
		mimeType: info.mimeType,
		bytes: Buffer.concat(chunks)
	});
}
