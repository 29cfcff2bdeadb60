#!/usr/bin/env bash
# Deploys the code that is in the application directory, as root:
#   install and build as the deploy user (deploy/build.sh: npm ci --ignore-scripts, rebuild of the
#   allowed native packages, private npm home — npm never runs as root) → show active jobs and
#   confirm (--yes skips) → migrate as the service user (backup, trial on a copy, verify, live) →
#   changed unit files installed → restart web, then worker → Caddy site (deploy/caddy.sh) → poll
#   /health for up to 15 s → status and recent log lines (secrets cut out).
# Exits non-zero if anything fails; see docs/runbook.md for the rollback.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
APP_DIR="${APP_DIR:-$(dirname "$HERE")}"
APP_USER="${APP_USER:-sticker}"
HEALTH_URL="${HEALTH_URL:-http://127.0.0.1:8000/health}"
ASSUME_YES=0
for arg in "$@"; do
	case "$arg" in
	--yes | -y) ASSUME_YES=1 ;;
	*) echo "usage: update.sh [--yes]" >&2; exit 2 ;;
	esac
done

say() { printf '\n\033[1m[update]\033[0m %s\n' "$*"; }
[[ "$(id -u)" -eq 0 ]] || { echo "run as root (sudo bash deploy/update.sh)" >&2; exit 1; }
cd "$APP_DIR"
[[ -f .env ]] || { echo "$APP_DIR/.env is missing (see docs/configuration.md)" >&2; exit 1; }
# The deploy user may add files to this directory (deploy/build.sh): a .env that root did not
# write is never read here, it would run as root.
[[ "$(stat -c %u .env)" -eq 0 && ! -L .env ]] || { echo "$APP_DIR/.env must be a file owned by root (chown root:$APP_USER .env)" >&2; exit 1; }

# systemd would keep a Windows carriage return inside a value (a token that never matches).
sed -i 's/\r$//' .env
set -a
# shellcheck disable=SC1091
. ./.env
set +a
DB_FILE="${DB_PATH:-data/app.db}"
[[ "$DB_FILE" = /* ]] || DB_FILE="$APP_DIR/$DB_FILE"

say "install and build, as the deploy user (deploy/build.sh)"
bash "$HERE/build.sh"
# mktemp, not a fixed name: the deploy user could have left a symlink under a fixed one.
version_tmp="$(mktemp "$APP_DIR/.VERSION.XXXXXX")"
if git -C "$APP_DIR" rev-parse --short HEAD >"$version_tmp" 2>/dev/null; then
	chmod 644 "$version_tmp"
	mv -fT "$version_tmp" VERSION
else
	rm -f "$version_tmp"
fi

say "jobs in flight"
active=0
if [[ -f "$DB_FILE" ]]; then
	sqlite3 -readonly -header -column "$DB_FILE" \
		"SELECT job_id, status, attempts, created_at FROM jobs WHERE status IN ('queued','processing','delivering') ORDER BY job_id;" || true
	active="$(sqlite3 -readonly "$DB_FILE" "SELECT count(*) FROM jobs WHERE status IN ('queued','processing','delivering');" 2>/dev/null || echo 0)"
fi
echo "$active job(s) queued or in progress (a restart releases them; they resume after it)."
if [[ "$ASSUME_YES" -eq 0 ]]; then
	read -r -p "Migrate and restart now? [y/N] " answer
	[[ "$answer" =~ ^[Yy]$ ]] || { echo "nothing restarted (the new build is in place; run again to deploy)"; exit 1; }
fi

say "database migration (src/lib/server/db/migrate-cli.ts, what npm run db:migrate runs)"
# As the service user, so a new database and its backup copy belong to it; node directly, without
# npm (which would read an .npmrc from the HOME it is given) and without tsx's cache in /tmp.
runuser -u "$APP_USER" -- env HOME="$APP_DIR/data" TSX_DISABLE_CACHE=1 node --import tsx src/lib/server/db/migrate-cli.ts

say "unit files"
changed=0
for unit in "$HERE"/systemd/*.service "$HERE"/systemd/*.timer; do
	target="/etc/systemd/system/$(basename "$unit")"
	if ! cmp -s "$unit" "$target"; then
		install -m 644 "$unit" "$target"
		echo "installed $(basename "$unit")"
		changed=1
	fi
done
[[ "$changed" -eq 1 ]] && systemctl daemon-reload
install -m 644 "$HERE/logrotate/sticker-kiosk" /etc/logrotate.d/sticker-kiosk

say "restart: web, then worker"
systemctl restart sticker-api.service
systemctl restart sticker-bot.service

say "Caddy site"
bash "$HERE/caddy.sh"

say "health ($HEALTH_URL, up to 15 s)"
healthy=0
for _ in $(seq 1 15); do
	if body="$(curl -fsS --max-time 2 "$HEALTH_URL" 2>/dev/null)"; then
		healthy=1
		echo "$body"
		break
	fi
	sleep 1
done

say "status"
systemctl --no-pager --lines=0 status sticker-api.service sticker-bot.service || true
say "recent log lines"
bash "$HERE/log-tail.sh" 15 "$APP_DIR/logs/web.log" "$APP_DIR/logs/worker.log"

if [[ "$healthy" -eq 0 ]]; then
	echo "DEPLOY FAILED: $HEALTH_URL did not answer within 15 s (see the logs above and docs/runbook.md)" >&2
	exit 1
fi
echo "deployed $(cat VERSION 2>/dev/null || echo '(no version)')"
