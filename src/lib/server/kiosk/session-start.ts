import QRCode from 'qrcode';
import type { Config } from '../config/config.ts';
import { deepLinkFor } from '../guests/bot-identity.ts';
import type { StartedSession } from '../../schemas/kiosk.ts';
import { readSessionView, startKioskSession, type KioskDeps, type StartOutcome } from './kiosk-session.ts';

export type StartAnswer = { kind: 'started'; session: StartedSession } | Exclude<StartOutcome, { kind: 'started' }>;

/**
 * Start as the kiosk page needs it: the session, the Telegram deep link, its QR code as SVG and —
 * in demo mode, where a local emulator stands in for Telegram — a link that opens the emulator's
 * chat page with the same start parameter.
 */
export async function startSessionForKiosk(
	deps: KioskDeps,
	config: Pick<Config, 'telegram' | 'EMULATOR_PORT'>,
	kioskId: number
): Promise<StartAnswer> {
	const outcome = await startKioskSession(deps, kioskId);
	if (outcome.kind !== 'started') return outcome;
	const deepLink = deepLinkFor(outcome.botUsername, outcome.token);
	const qrSvg = await QRCode.toString(deepLink, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
	const emulatorLink =
		config.telegram.mode === 'emulator' ? `http://localhost:${config.EMULATOR_PORT}/?start=${outcome.token}` : null;
	const view = await readSessionView(deps, outcome.token);
	if (!view) throw new Error('a session just created cannot be read');
	return { kind: 'started', session: { token: outcome.token, deepLink, emulatorLink, qrSvg, view } };
}
