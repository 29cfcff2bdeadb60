#!/usr/bin/env bash
# First-time server setup, as root (idempotent: running it again changes nothing that is right).
# Service and deploy users, directories, firewall (22/80/443), fail2ban's sshd jail, 2 GB swap, Node.js and
# Caddy, systemd units, logrotate, the backup timer, and this project's Caddy site without
# breaking a neighbour's. It does not write .env and does not start the application services.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
APP_DIR="${APP_DIR:-/opt/sticker-kiosk}"
APP_USER="${APP_USER:-sticker}"
DEPLOY_USER="${DEPLOY_USER:-sticker-deploy}"
DEPLOY_HOME="${DEPLOY_HOME:-/var/lib/sticker-deploy}"
BACKUP_DIR="${BACKUP_DIR:-/var/backups/sticker-pack}"
NODE_MAJOR=20

say() { printf '\n\033[1m[setup]\033[0m %s\n' "$*"; }
[[ "$(id -u)" -eq 0 ]] || { echo "run as root (sudo bash deploy/setup.sh)" >&2; exit 1; }

say "packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq ufw fail2ban sqlite3 rsync logrotate curl ca-certificates gnupg debian-keyring debian-archive-keyring apt-transport-https >/dev/null

node_ok() { command -v node >/dev/null && [[ "$(node -p 'process.versions.node.split(".")[0]')" -ge "$NODE_MAJOR" ]]; }
if ! node_ok; then
	say "Node.js $NODE_MAJOR from NodeSource"
	curl -fsSL "https://deb.nodesource.com/setup_${NODE_MAJOR}.x" | bash -
	apt-get install -y -qq nodejs >/dev/null
fi

if ! command -v caddy >/dev/null; then
	say "Caddy from its official repository"
	curl -1sLf 'https://dl.cloudsmith.io/public/caddy/stable/gpg.key' | gpg --dearmor --yes -o /usr/share/keyrings/caddy-stable-archive-keyring.gpg
	curl -1sLf 'https://dl.cloudsmith.io/public/caddy/stable/debian.deb.txt' >/etc/apt/sources.list.d/caddy-stable.list
	apt-get update -qq
	apt-get install -y -qq caddy >/dev/null
fi

say "service and deploy users, directories"
if ! id -u "$APP_USER" >/dev/null 2>&1; then
	useradd --system --home-dir "$APP_DIR" --no-create-home --shell /usr/sbin/nologin "$APP_USER"
fi
# npm and the build run as this user (deploy/build.sh), never as root and never as the service.
if ! id -u "$DEPLOY_USER" >/dev/null 2>&1; then
	useradd --system --user-group --home-dir "$DEPLOY_HOME" --no-create-home --shell /usr/sbin/nologin "$DEPLOY_USER"
fi
install -d -o "$DEPLOY_USER" -g "$DEPLOY_USER" -m 700 "$DEPLOY_HOME"
# Code: root-owned, readable by the service. The directory is group-writable for the deploy user
# with the sticky bit, so the build can replace its own outputs (node_modules, build/) but nothing
# of root's. Data and logs: the service's own (750).
install -d -o root -g "$DEPLOY_USER" -m 1775 "$APP_DIR"
install -d -o "$APP_USER" -g "$APP_USER" -m 750 "$APP_DIR/data" "$APP_DIR/logs"
install -d -o "$APP_USER" -g "$APP_USER" -m 700 "$BACKUP_DIR"
install -d -o caddy -g caddy -m 755 /var/log/caddy
[[ -f "$APP_DIR/.env" ]] && chown root:"$APP_USER" "$APP_DIR/.env" && chmod 640 "$APP_DIR/.env"

say "firewall: inbound 22, 80, 443 only"
ufw default deny incoming >/dev/null
ufw default allow outgoing >/dev/null
for port in 22 80 443; do ufw allow "$port/tcp" >/dev/null; done
ufw --force enable >/dev/null
ufw status | sed -n '1,12p'

say "fail2ban: sshd jail (5 failures in 10 minutes → 1 hour ban)"
cat >/etc/fail2ban/jail.d/sticker-sshd.local <<'JAIL'
[sshd]
enabled = true
maxretry = 5
findtime = 10m
bantime = 1h
JAIL
systemctl enable --now fail2ban >/dev/null
systemctl reload fail2ban || systemctl restart fail2ban

say "swap"
bash "$HERE/swap.sh"

say "systemd units, logrotate, backup timer"
install -m 644 "$HERE"/systemd/*.service "$HERE"/systemd/*.timer /etc/systemd/system/
install -m 644 "$HERE/logrotate/sticker-kiosk" /etc/logrotate.d/sticker-kiosk
systemctl daemon-reload
systemctl enable sticker-api.service sticker-bot.service >/dev/null
systemctl enable --now sticker-backup.timer >/dev/null

say "Caddy site"
bash "$HERE/caddy.sh"

say "done"
cat <<NEXT
Next steps:
  1. Put the code in $APP_DIR (git clone or an archive) and write $APP_DIR/.env
     (NODE_ENV=production, PUBLIC_BASE_URL, ORIGIN, TELEGRAM_BOT_TOKEN, LEADS_IP_SALT, …;
     see docs/configuration.md), then: chown root:$APP_USER $APP_DIR/.env && chmod 640 $APP_DIR/.env
  2. sudo bash $APP_DIR/deploy/update.sh   (installs, builds, migrates, starts, checks /health)
NEXT
