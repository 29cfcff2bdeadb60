#!/usr/bin/env bash
# One database backup, for the daily systemd timer (sticker-backup.service) or by hand.
# The work is scripts/backup.ts (SQLite backup API → integrity_check → gzip -9 → mode 600 in a 700
# directory → keep the newest 14 → settings.last_backup); this wrapper makes it run as the service
# user from the application directory and appends the one-line result to logs/backup.log.
set -euo pipefail

APP_DIR="${APP_DIR:-/opt/sticker-kiosk}"
APP_USER="${APP_USER:-sticker}"
export BACKUP_DIR="${BACKUP_DIR:-/var/backups/sticker-pack}"
LOG_FILE="${BACKUP_LOG:-$APP_DIR/logs/backup.log}"

# Started by root (by hand): run as the service user so the database's WAL files keep their owner.
if [[ "$(id -u)" -eq 0 && "$APP_USER" != root ]]; then
	exec runuser -u "$APP_USER" -- env APP_DIR="$APP_DIR" APP_USER="$APP_USER" BACKUP_DIR="$BACKUP_DIR" BACKUP_LOG="$LOG_FILE" "$0" "$@"
fi

cd "$APP_DIR"
if [[ -z "${DB_PATH:-}" && -f .env ]]; then
	set -a
	# shellcheck disable=SC1091
	. ./.env
	set +a
fi

stamp() { date -u +%Y-%m-%dT%H:%M:%SZ; }
if output="$(node --import tsx scripts/backup.ts 2>&1)"; then
	echo "$(stamp) $output" | tee -a "$LOG_FILE"
else
	status=$?
	echo "$(stamp) $output" | tee -a "$LOG_FILE" >&2
	exit "$status"
fi
