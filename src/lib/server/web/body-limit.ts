/**
 * adapter-node's BODY_SIZE_LIMIT for the web process (its default is 512 KB): above the 15 MB photo
 * cap, so the upload endpoint can answer 413 itself. scripts/run-all.ts and the tests that start the
 * built server use this; deploy/systemd/sticker-api.service states the same value.
 */
export const ADAPTER_BODY_SIZE_LIMIT = '20M';
