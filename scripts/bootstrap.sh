#!/usr/bin/env bash
# Installs what the product needs on a fresh machine; cheap when everything is already there.
# Used by both README commands (scripts/run.sh and scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

if ! command -v node >/dev/null 2>&1; then
	echo "Node.js 20.12+ is required (https://nodejs.org) — install it, then run this again." >&2
	exit 1
fi

# npm ci when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	say "installing npm packages (npm ci; better-sqlite3 compiles, about a minute)"
	npm ci --no-audit --no-fund
fi

# The Prisma clients (SQLite, and PostgreSQL from the derived schema) are generated, never committed.
if [ ! -f src/lib/server/db/generated/client.ts ] || [ prisma/schema.prisma -nt src/lib/server/db/generated/client.ts ] \
	|| [ ! -f src/lib/server/db/generated-pg/client.ts ] || [ prisma/schema.prisma -nt src/lib/server/db/generated-pg/client.ts ]; then
	say "generating the Prisma clients"
	node scripts/prisma-generate.mjs >/dev/null
fi

npx svelte-kit sync >/dev/null

# The browser tests run in Debian's chromium-headless-shell (about a third less CPU than the full
# browser headless); the full chromium is for watching a test (--headed, docs/development.md).
if [ "${1:-}" = "--with-browser" ] \
	&& { ! command -v chromium >/dev/null 2>&1 || ! command -v chromium-headless-shell >/dev/null 2>&1; }; then
	say "installing Chromium and its headless shell from Debian for the browser tests"
	if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell >/dev/null
fi

# Animated stickers: ffmpeg (libvpx-vp9) encodes them and ffprobe checks them. Needed at run time by
# the worker and by the tests; without them the worker warns once and delivers still stickers only.
if ! command -v ffmpeg >/dev/null 2>&1 || ! command -v ffprobe >/dev/null 2>&1; then
	say "installing ffmpeg from Debian for the animated stickers"
	if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
	{ $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq ffmpeg >/dev/null; } \
		|| say "could not install ffmpeg (apt-get install -y ffmpeg): packs will have still stickers only"
fi
