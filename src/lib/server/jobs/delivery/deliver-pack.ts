import type { StickerSet, TelegramApi } from '../../telegram/api.ts';
import { isStickerSetMissing, isVideoStickerRefused } from '../../telegram/errors.ts';
import type { Locale } from '../../../i18n/locale.ts';
import type { Db } from '../../db/client.ts';
import type { FileStore } from '../../files/file-store.ts';
import type { Logger } from '../../log/logger.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';
import type { Clock } from '../../time/clock.ts';
import type { JobStage } from '../job-progress.ts';
import { LeaseLost, throwIfAborted } from '../job-errors.ts';
import { markJobDelivering, recordPackCreated, recordPackName } from '../job.repository.ts';
import type { JobFiles } from '../pipeline/job-files.ts';
import { packStickers } from './pack-stickers.ts';
import { isPackNameRetired } from '../../lifecycle/retired-pack-names.ts';
import { loadPseudonymKey } from '../../lifecycle/pseudonym.ts';
import { choosePackName } from './pack-name.ts';
import { sendLinkOnce } from './send-link.ts';

/**
 * delivering: create the set (all 12 in one createNewStickerSet; the moving ones as video stickers) → pack_created_at → delete the
 * selfie → readiness (getStickerSet until all 12 are visible) → the link exactly once → done.
 * Each side effect is recorded before the next step, and on resume getStickerSet is asked before
 * anything is created, so a crash at any point gives neither a second set nor a second link.
 */
export interface DeliveryDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	api: TelegramApi;
	botUsername: string;
	files: JobFiles;
	/** Where the stickers are read and the selfie deleted (`files.keys`). */
	fileStore: FileStore;
	/** DATA_DIR, where the pseudonym key of the erasure ledger lives. */
	dataDir: string;
	locale: Locale;
	/** The set's title (packTitle of the event's template), used when the set is created. */
	setTitle: string;
	signal: AbortSignal;
	enterStage(stage: JobStage, detail?: string): Promise<void>;
	crashPoint(step: string): void;
	sleep(ms: number, signal: AbortSignal): Promise<void>;
	/** Renews and confirms this slot's lease right before an outside side effect. */
	holdsLease(): Promise<boolean>;
	readinessTimeoutMs?: number;
}

export async function deliverPack(deps: DeliveryDeps, jobId: number): Promise<void> {
	const { db, clock } = deps;
	const delivering = await markJobDelivering(db, clock, jobId);
	if (!delivering.won) throw new LeaseLost(delivering.refusal);
	const job = await db.job.findUniqueOrThrow({ where: { jobId } });
	await deps.enterStage('uploading');
	const name = job.packName ?? (await choosePackNameOnce(deps, jobId, job.telegramUserId));
	if (!job.packCreatedAt) {
		await createSetUnlessExists(deps, job.telegramUserId, name);
		await recordPackCreated(db, clock, jobId);
		deps.crashPoint('after_set_created');
	}
	// The selfie is kept no longer than needed: it goes as soon as the set exists; the face crop
	// (needed for redraws) follows the file TTL.
	const selfie = deps.fileStore.keyOf(job.photoPath);
	if (selfie) await deps.fileStore.delete(selfie);
	await waitUntilReady(deps, name);
	deps.crashPoint('after_readiness');
	await sendLinkOnce(deps, { jobId, userId: job.telegramUserId, name });
}

async function choosePackNameOnce(deps: DeliveryDeps, jobId: number, userId: bigint): Promise<string> {
	const retired = (candidate: string) => isPackNameRetired(deps.db, loadPseudonymKey(deps.dataDir), userId, candidate);
	return recordPackName(deps.db, jobId, await choosePackName(deps.db, userId, deps.botUsername, retired));
}

export async function createSetUnlessExists(deps: DeliveryDeps, userId: bigint, name: string): Promise<void> {
	if (await findSet(deps.api, name)) return;
	// A slot whose lease ran out (its job was requeued and claimed again) must not create a second set.
	throwIfAborted(deps.signal);
	if (!(await deps.holdsLease())) throw new LeaseLost('lease lost before creating the sticker set');
	const stickers = await packStickers(deps.fileStore, deps.files.keys);
	try {
		await deps.api.createNewStickerSet(Number(userId), name, deps.setTitle, stickers);
	} catch (error) {
		if (!stickers.some((s) => s.format === 'video') || !isVideoStickerRefused(error)) throw error;
		// The guest still gets their pack, still: the refusal is the operators' to look into.
		deps.logger.warn({ err: error, name }, 'Telegram refused the video stickers; creating the set with still ones');
		const stills = await packStickers(deps.fileStore, deps.files.keys, { stillsOnly: true });
		await deps.api.createNewStickerSet(Number(userId), name, deps.setTitle, stills);
	}
}

export async function findSet(api: TelegramApi, name: string): Promise<StickerSet | null> {
	try {
		return await api.getStickerSet(name);
	} catch (error) {
		if (isStickerSetMissing(error)) return null;
		throw error;
	}
}

async function waitUntilReady(deps: DeliveryDeps, name: string): Promise<void> {
	const deadline = deps.clock.now().getTime() + (deps.readinessTimeoutMs ?? 60_000);
	for (let wait = 250; ; wait = Math.min(wait * 2, 4000)) {
		const set = await findSet(deps.api, name);
		if (set && set.stickers.length >= STICKER_VARIANTS.length) return;
		if (deps.clock.now().getTime() > deadline)
			throw new Error(`sticker set ${name} shows ${set?.stickers.length ?? 0} of ${STICKER_VARIANTS.length} stickers`);
		await deps.sleep(wait, deps.signal);
	}
}
