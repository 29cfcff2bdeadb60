import type { EmulatorCore, MethodCall } from '../core.ts';
import { badRequest, TELEGRAM_ERRORS } from '../errors.ts';
import type { FileKind, FileRecord } from '../types.ts';

// An InputFile arrives as a multipart upload (`attach://<part>` or a part named like the field),
// a file_id of something stored earlier, or an http(s) URL Telegram would download itself.

export interface InputBytes {
	bytes: Buffer;
	filename?: string;
	/** Set when the input was a file_id: the record it names. */
	existing?: FileRecord;
}

const REMOTE_FILE_LIMIT = 20 * 1024 * 1024;
const REMOTE_FETCH_TIMEOUT_MS = 10_000;

export async function readInputBytes(call: MethodCall, field: string, value: unknown): Promise<InputBytes> {
	if (value === undefined || value === null || value === '') {
		const upload = call.uploads.get(field);
		if (!upload) throw badRequest(`there is no ${field} in the request`);
		return { bytes: upload.bytes, filename: upload.filename };
	}
	if (typeof value !== 'string') throw badRequest(`can't parse ${field}: InputFile expected`);
	if (value.startsWith('attach://')) {
		const upload = call.uploads.get(value.slice('attach://'.length));
		if (!upload || upload.bytes.length === 0) throw TELEGRAM_ERRORS.wrongFileId();
		return { bytes: upload.bytes, filename: upload.filename };
	}
	if (/^https?:\/\//i.test(value)) return { bytes: await fetchRemoteFile(call.core, value) };
	const existing = call.core.store.file(value);
	const bytes = existing?.storageKey ? await call.core.fileBytes.get(existing.storageKey) : undefined;
	if (!existing || !bytes) throw TELEGRAM_ERRORS.wrongFileId();
	return { bytes, existing };
}

/**
 * Telegram's servers fetch the URL, so a URL only they could not reach (localhost, a private
 * network) fails here too — that is a bug the product would only meet in production otherwise.
 */
async function fetchRemoteFile(core: EmulatorCore, url: string): Promise<Buffer> {
	const failed = () => badRequest('failed to get HTTP URL content');
	if (!core.settings.fetchRemoteFiles || isPrivateHost(new URL(url).hostname)) throw failed();
	try {
		const response = await fetch(url, { signal: AbortSignal.timeout(REMOTE_FETCH_TIMEOUT_MS) });
		if (!response.ok) throw failed();
		const bytes = Buffer.from(await response.arrayBuffer());
		if (bytes.length > REMOTE_FILE_LIMIT) throw TELEGRAM_ERRORS.fileTooBig();
		return bytes;
	} catch (error) {
		if (error instanceof Error && error.message.startsWith('Bad Request')) throw error;
		throw failed();
	}
}

function isPrivateHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return (
		host === 'localhost' ||
		host.endsWith('.localhost') ||
		host === '::1' ||
		/^(127|10|0)\./.test(host) ||
		/^192\.168\./.test(host) ||
		/^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
		/^169\.254\./.test(host) ||
		/^f[cd][0-9a-f]{2}:/.test(host)
	);
}

export interface NewFileInfo {
	ext: string;
	mime: string;
	width?: number;
	height?: number;
}

/** A new file record for these bytes, sharing storage with `existing` when there is one. */
export async function storeFile(
	core: EmulatorCore,
	kind: FileKind,
	input: InputBytes,
	info: NewFileInfo
): Promise<FileRecord> {
	const record = core.store.newFile(kind, info.ext, {
		size: input.bytes.length,
		mime: info.mime,
		width: info.width,
		height: info.height,
		storageKey: input.existing?.storageKey ?? null
	});
	if (!record.storageKey) {
		record.storageKey = `${record.fileUniqueId}.${info.ext}`;
		await core.fileBytes.put(record.storageKey, input.bytes);
		core.store.changed();
	}
	return record;
}

export function extensionFor(format: string): string {
	return format === 'jpeg' ? 'jpg' : format;
}
