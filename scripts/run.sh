#!/usr/bin/env bash
# README command 1: runs the whole product on this machine (web + worker, and the Telegram
# emulator when no TELEGRAM_BOT_TOKEN is set). Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
node --import tsx scripts/build-if-changed.ts
exec node --import tsx scripts/run-all.ts
