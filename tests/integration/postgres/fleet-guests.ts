import type { Random } from '../../../tools/fake-gemini/seeded.ts';
import type { TelegramEmulator } from '../../../tools/telegram-emulator/server.ts';
import type { ChatMessageView } from '../../../tools/telegram-emulator/views.ts';
import { postJson, requestWeb, type BuiltWeb } from '../../helpers/built-web.ts';
import { selfieJpeg } from '../guest-photos.ts';

/**
 * A guest of the fleet test, walked through the real entry points only: the kiosk API of whichever
 * web process the load balancer (a seeded random pick) sends each request to, and the bot through
 * the Telegram emulator — answered by whichever worker holds the updates lease just then.
 */
export interface FleetGuestDeps {
	webs: BuiltWeb[];
	emulator: TelegramEmulator;
	random: Random;
	/** How long one bot answer may take: a killed lease holder's updates wait up to 15 s for the next. */
	botTimeoutMs: number;
}

export interface WalkedGuest {
	guestId: number;
	token: string;
	jobId: number;
}

let selfie: Promise<Buffer> | undefined;
const pick = <T>(random: Random, items: T[]): T => items[Math.floor(random() * items.length)]!;

/** Start on the kiosk, /start in the bot, consent, an outfit, the selfie: the job is queued. */
export async function walkGuest(deps: FleetGuestDeps, kioskKey: string, guestId: number): Promise<WalkedGuest> {
	const cookie = `kiosk_key=${kioskKey}`;
	const token = await startSession(deps, cookie);
	const control = deps.emulator.control;
	const botSays = (test: (m: ChatMessageView) => boolean) =>
		control.waitForMessage(guestId, (m) => m.from_bot && test(m), { timeoutMs: deps.botTimeoutMs, intervalMs: 100 });
	await control.sendUserMessage({ user_id: guestId, text: `/start ${token}` });
	const consent = await botSays((m) => m.buttons.flat().some((b) => b.callback_data === `gc:${token}`));
	await control.pressButton({ user_id: guestId, message_id: consent.message_id, callback_data: `gc:${token}` });
	const catalogue = await botSays(
		(m) => m.photo !== undefined && m.buttons.flat().some((b) => b.callback_data?.startsWith('go:'))
	);
	const outfit = catalogue.buttons.flat().find((b) => b.callback_data?.startsWith('go:'))!.callback_data!;
	await control.pressButton({ user_id: guestId, message_id: catalogue.message_id, callback_data: outfit });
	await waitForStatus(deps, cookie, token, 'template_chosen');
	return { guestId, token, jobId: await uploadSelfie(deps, cookie, token) };
}

/** POST /api/kiosk/sessions (the fleet test first waits for the bot's name, without which Start answers 503). */
async function startSession(deps: FleetGuestDeps, cookie: string): Promise<string> {
	const answer = await postJson(pick(deps.random, deps.webs), '/api/kiosk/sessions', {}, { cookie });
	if (answer.status !== 201) throw new Error(`kiosk Start answered ${answer.status}: ${await answer.text()}`);
	return ((await answer.json()) as { token: string }).token;
}

/** The kiosk's status read (GET /api/kiosk/sessions/<token>), polled as the page does between pushes. */
async function waitForStatus(deps: FleetGuestDeps, cookie: string, token: string, status: string): Promise<void> {
	const deadline = Date.now() + deps.botTimeoutMs;
	for (;;) {
		const answer = await requestWeb(pick(deps.random, deps.webs), `/api/kiosk/sessions/${token}`, { cookie });
		const view = answer.status === 200 ? ((await answer.json()) as { status: string }) : null;
		if (view?.status === status) return;
		if (Date.now() > deadline) throw new Error(`session ${token} is ${view?.status ?? answer.status}, not ${status}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

async function uploadSelfie(deps: FleetGuestDeps, cookie: string, token: string): Promise<number> {
	const answer = await requestWeb(pick(deps.random, deps.webs), `/api/kiosk/sessions/${token}/photo?locale=en`, {
		method: 'POST',
		cookie,
		headers: { 'content-type': 'image/jpeg' },
		body: new Uint8Array(await (selfie ??= selfieJpeg()))
	});
	if (answer.status !== 201) throw new Error(`the selfie upload answered ${answer.status}: ${await answer.text()}`);
	return ((await answer.json()) as { jobId: number }).jobId;
}
