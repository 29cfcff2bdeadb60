#!/usr/bin/env bash
# Installs the npm packages and builds the app in the application directory — as the deploy user,
# never as root (called by update.sh, which runs as root):
#   npm ci --ignore-scripts → npm rebuild <the packages package.json's allowScripts allows> →
#   npm run prepare (our own svelte-kit sync, skipped with the scripts) → db:generate → build
# npm runs with a private home, cache and temp directory owned by the deploy user (mode 700) and an
# empty environment: a shared HOME such as /tmp would let any local user plant an .npmrc (and with
# it code) for npm, and .env's secrets have no business in a build. Install scripts run only for the
# native packages we allow, and only as the deploy user. Paths and users can be moved with the
# variables below (tests do).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
APP_DIR="${APP_DIR:-$(dirname "$HERE")}"
DEPLOY_USER="${DEPLOY_USER:-sticker-deploy}"
DEPLOY_HOME="${DEPLOY_HOME:-/var/lib/sticker-deploy}"
RUNUSER="${RUNUSER:-runuser}"
# What npm and the build write; everything else in the application directory stays root's.
OUTPUTS=(node_modules build .svelte-kit src/lib/server/db/generated)

[[ "$(id -u)" -eq 0 ]] || { echo "run as root (deploy/update.sh does)" >&2; exit 1; }
id -u "$DEPLOY_USER" >/dev/null 2>&1 || { echo "there is no user $DEPLOY_USER: run deploy/setup.sh first" >&2; exit 1; }
DEPLOY_GROUP="$(id -gn "$DEPLOY_USER")"
cd "$APP_DIR"

install -d -o "$DEPLOY_USER" -g "$DEPLOY_GROUP" -m 700 "$DEPLOY_HOME" "$DEPLOY_HOME/npm-cache" "$DEPLOY_HOME/tmp"
# The build removes and recreates build/ itself, so the deploy user must be able to add entries to
# the application directory: group-writable with the sticky bit (as /tmp), it can remove or rename
# only what it owns — never the code, deploy/ or .env, which stay root's.
chgrp "$DEPLOY_GROUP" "$APP_DIR"
chmod 1775 "$APP_DIR"
install -d -o "$DEPLOY_USER" -g "$DEPLOY_GROUP" -m 755 src/lib/server/db/generated
for out in "${OUTPUTS[@]}"; do
	# -h: a symlink is changed itself, never what it points to.
	if [[ -e "$out" && ! -L "$out" ]]; then chown -hR "$DEPLOY_USER:$DEPLOY_GROUP" "$out"; fi
done

as_deploy() {
	"$RUNUSER" -u "$DEPLOY_USER" -- env -i PATH="$PATH" LANG=C.UTF-8 HOME="$DEPLOY_HOME" TMPDIR="$DEPLOY_HOME/tmp" \
		npm_config_cache="$DEPLOY_HOME/npm-cache" npm_config_update_notifier=false "$@"
}

allowed_list="$(as_deploy node -p "Object.entries(require('./package.json').allowScripts ?? {}).filter(([, ok]) => ok === true).map(([name]) => name).join(' ')")"
read -r -a allowed <<<"$allowed_list"
echo "build: npm ci --ignore-scripts as $DEPLOY_USER (npm home $DEPLOY_HOME)"
as_deploy npm ci --ignore-scripts --no-audit --no-fund
if [[ ${#allowed[@]} -gt 0 ]]; then
	echo "build: install scripts of the allowed native packages: ${allowed[*]}"
	as_deploy npm rebuild "${allowed[@]}"
fi
as_deploy npm run prepare
as_deploy npm run db:generate
as_deploy npm run build
