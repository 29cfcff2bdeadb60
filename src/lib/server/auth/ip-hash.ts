import { createHmac } from 'node:crypto';

/**
 * Throttling counts failures per client address without storing the address: first 32 hex of
 * HMAC-SHA256(ip, salt), the same recipe as the leads' ip_hash: no raw visitor IP is ever kept.
 */
export function hashClientIp(ip: string, salt: string): string {
	return createHmac('sha256', salt).update(ip).digest('hex').slice(0, 32);
}

/**
 * The install's IP salt (LEADS_IP_SALT, required in production). Without it (development, tests)
 * a fixed development salt keeps throttling working; nothing else depends on it.
 */
export function ipSaltFrom(config: { LEADS_IP_SALT?: string }): string {
	return config.LEADS_IP_SALT ?? 'development-only-console-ip-salt';
}
