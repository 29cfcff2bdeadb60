import { Api } from 'grammy';
import path from 'node:path';
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { OperatorIdentity } from '../../src/lib/server/auth/roles.ts';
import { composeBroadcast } from '../../src/lib/server/broadcasts/broadcast-actions.ts';
import { answerBroadcastImage, broadcastImageUpload } from '../../src/lib/server/broadcasts/broadcast-image-route.ts';
import {
	BROADCAST_RETENTION_DAYS,
	eraseExpiredBroadcasts
} from '../../src/lib/server/broadcasts/broadcast-retention.ts';
import { scheduleBroadcast } from '../../src/lib/server/broadcasts/broadcasts.repository.ts';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import { DAY } from '../../src/lib/server/time/clock.ts';
import { deliverBroadcasts } from '../../src/worker/tasks/broadcasts-deliver.ts';
import { answerPictureUpload } from '../../src/lib/server/web/picture-upload.ts';
import { bucketStore, useS3Server } from '../helpers/s3-server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { seedGuests } from './broadcast-world.ts';
import { startGuestWorld, type GuestWorld } from './guest-harness.ts';

// A broadcast picture uploaded on a web process is sent by a worker on another host: on a bucket
// both read the same object, and the retention clock deletes it there.

const olga: OperatorIdentity = { id: 1, username: 'olga', displayName: null, role: 'operator' };

describe('broadcast pictures on an S3 bucket', () => {
	const tempDir = useTempDir('file-store-bcast-');
	const s3Server = useS3Server();
	let world: GuestWorld | undefined;
	afterEach(async () => {
		await world?.close();
		world = undefined;
	});

	it('upload → compose → sent as a photo from the bucket → shown in the console → gone with the broadcast', async () => {
		const server = await s3Server();
		const store = bucketStore(server);
		world = await startGuestWorld(tempDir());
		const { db, clock, emulator } = world;
		const webDataDir = tempDir();
		const png = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#3a6' } })
			.png()
			.toBuffer();

		const uploaded = await answerPictureUpload(
			olga,
			new Request('http://x/api/console/broadcasts/image', { method: 'POST', body: new Uint8Array(png) }),
			broadcastImageUpload(store)
		);
		const { name } = (await uploaded.json()) as { name: string };
		expect(uploaded.status).toBe(201);
		expect(await store.stat(`broadcasts/${name}`)).not.toBeNull();
		expect(existsSync(path.join(webDataDir, 'broadcasts'))).toBe(false);
		const shown = await answerBroadcastImage(store, olga, name);
		expect((await sharp(Buffer.from(await shown.arrayBuffer())).metadata()).format).toBe('jpeg');

		const broadcast = await composeBroadcast(
			{ db, clock, actor: { name: 'olga', ip: null }, fileStore: store },
			{ eventId: null, text: 'Photo s3', imageName: name, buttonText: '', buttonUrl: '' }
		);
		expect(broadcast.imagePath).toBe(`broadcasts/${name}`);
		const [guest] = await seedGuests(db, emulator, [{}], clock.now().toISOString());
		await scheduleBroadcast(db, clock.now().toISOString(), broadcast.id, clock.now().toISOString());
		const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: emulator.url });
		const deps = {
			db,
			clock,
			logger: silentLogger,
			api,
			budget: new BotBudget(db, clock, 'test'),
			cooldown: new ChatCooldown(),
			leaseMs: 120_000,
			sleep: async (ms: number) => clock.advance(ms),
			random: () => 0.5,
			fileStore: store
		};
		for (let pass = 0; pass < 5; pass++) {
			await deliverBroadcasts(deps);
			if ((await db.broadcastRecipient.count({ where: { state: 'queued' } })) === 0) break;
			clock.advance(1000);
		}
		const message = (await emulator.control.chatMessages(guest!)).find((m) => m.caption?.includes('Photo s3'));
		expect(message?.photo).toBeDefined();

		clock.advance((BROADCAST_RETENTION_DAYS + 1) * DAY);
		expect(await eraseExpiredBroadcasts(db, clock, store)).toBe(1);
		expect(await store.stat(`broadcasts/${name}`)).toBeNull();
	}, 60_000);
});
