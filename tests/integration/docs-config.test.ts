import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../src/lib/server/config/env.schema.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';

/** Docs that stay true: a setting the code reads but the docs do not mention fails the build. */
const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
const variables = Object.keys(envSchema.shape);

const README_CORE = [
	'DB_PATH',
	'DATA_DIR',
	'PORT',
	'PUBLIC_BASE_URL',
	'TELEGRAM_BOT_TOKEN',
	'TELEGRAM_API_ROOT',
	'ADMIN_TELEGRAM_IDS',
	'LEADS_CHAT_ID',
	'LEADS_IP_SALT',
	'IMAGE_PROVIDER',
	'GEMINI_API_KEY',
	'GEMINI_BASE_URL',
	'PHOTO_TTL_HOURS',
	'WORKER_SLOTS'
];

describe('configuration docs', () => {
	it('docs/configuration.md documents every environment variable the code reads', () => {
		const doc = read('docs/configuration.md');
		expect(variables.filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
	});

	it('the README table lists the core settings', () => {
		const readme = read('README.md');
		expect(README_CORE.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
		expect(README_CORE.every((name) => variables.includes(name))).toBe(true);
	});
});
