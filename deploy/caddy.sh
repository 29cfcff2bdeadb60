#!/usr/bin/env bash
# Installs this project's Caddy site without ever breaking the neighbour's (the server is shared):
#
#   main Caddyfile                                      action
#   already has the import line                         not touched at all
#   missing, empty, the stock package file,             backed up, replaced with the import line
#     or this project's old single-site file              (one-time migration)
#   anything else without the import line               error, nothing changed: a human adds the line
#
# Then the site file is compared with the repository copy. Unchanged (and Caddyfile untouched):
# no validate, no reload — a neighbour's half-finished edit is not applied on their behalf.
# Changed: caddy validate; on failure both files are rolled back and Caddy is not reloaded; on
# success systemctl reload caddy. Paths can be moved with the variables below (tests do).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CADDY_DIR="${CADDY_DIR:-/etc/caddy}"
CADDY_BIN="${CADDY_BIN:-caddy}"
SYSTEMCTL="${SYSTEMCTL:-systemctl}"
SITE_SOURCE="${SITE_SOURCE:-$HERE/caddy/stickers.caddy}"
SITE_NAME="stickers.caddy"
CADDYFILE="$CADDY_DIR/Caddyfile"
SITES_DIR="$CADDY_DIR/sites"
SITE_TARGET="$SITES_DIR/$SITE_NAME"
IMPORT_LINE="import $SITES_DIR/*.caddy"
STAMP="$(date -u +%Y%m%d-%H%M%S)"

# The site address of our own site file (first non-comment line, without the brace).
OUR_ADDRESS="$(grep -v '^[[:space:]]*#' "$SITE_SOURCE" | grep -m1 '{' | sed 's/[[:space:]]*{.*//')"

has_import_line() {
	grep -Eq "^[[:space:]]*import[[:space:]]+${SITES_DIR//\//\\/}/\*\.caddy[[:space:]]*$" "$CADDYFILE"
}

# Meaningful lines: comments and blank lines removed.
meaningful() { grep -v '^[[:space:]]*#' "$1" | grep -v '^[[:space:]]*$' || true; }

is_stock_file() {
	# The file the caddy package installs: one ":80" site serving /usr/share/caddy.
	local body
	body="$(meaningful "$CADDYFILE")"
	grep -q '^:80[[:space:]]*{' <<<"$body" && grep -q 'root \* /usr/share/caddy' <<<"$body" &&
		[[ "$(grep -c '{' <<<"$body")" -eq 1 ]]
}

is_our_old_single_site() {
	# Exactly one top-level site block, and it is ours.
	local sites
	sites="$(meaningful "$CADDYFILE" | grep -E '^[^[:space:]].*\{[[:space:]]*$' || true)"
	local address="${sites%%\{*}"
	address="${address%%[[:space:]]*}"
	[[ "$(grep -c . <<<"$sites")" -eq 1 ]] && [[ "$address" == "$OUR_ADDRESS" ]]
}

caddyfile_changed=0
caddyfile_backup=""
ensure_import_line() {
	if [[ -f "$CADDYFILE" ]] && has_import_line; then
		echo "caddy: $CADDYFILE already imports $SITES_DIR — not touched"
		return 0
	fi
	if [[ ! -f "$CADDYFILE" ]] || [[ -z "$(meaningful "$CADDYFILE")" ]] || is_stock_file || is_our_old_single_site; then
		if [[ -f "$CADDYFILE" ]]; then
			caddyfile_backup="$CADDYFILE.bak-$STAMP"
			cp -p "$CADDYFILE" "$caddyfile_backup"
			echo "caddy: backed up $CADDYFILE to $caddyfile_backup"
		fi
		printf '# Each project on this server owns one file in %s/.\n%s\n' "$SITES_DIR" "$IMPORT_LINE" >"$CADDYFILE"
		caddyfile_changed=1
		echo "caddy: $CADDYFILE now only imports $SITES_DIR/*.caddy"
		return 0
	fi
	echo "caddy: ERROR: $CADDYFILE has other sites and no import line. Nothing was changed." >&2
	echo "caddy: add this line to it by hand, then run this script again:  $IMPORT_LINE" >&2
	return 1
}

rollback() {
	echo "caddy: validation failed — rolling back, Caddy not reloaded" >&2
	if [[ -n "$site_backup" ]]; then mv -f "$site_backup" "$SITE_TARGET"; else rm -f "$SITE_TARGET"; fi
	if [[ "$caddyfile_changed" -eq 1 ]]; then
		if [[ -n "$caddyfile_backup" ]]; then mv -f "$caddyfile_backup" "$CADDYFILE"; else rm -f "$CADDYFILE"; fi
	fi
}

ensure_import_line
mkdir -p "$SITES_DIR"
if [[ "$caddyfile_changed" -eq 0 ]] && [[ -f "$SITE_TARGET" ]] && cmp -s "$SITE_SOURCE" "$SITE_TARGET"; then
	echo "caddy: $SITE_TARGET unchanged — no validate, no reload"
	exit 0
fi

site_backup=""
if [[ -f "$SITE_TARGET" ]]; then
	site_backup="$SITE_TARGET.bak-$STAMP"
	cp -p "$SITE_TARGET" "$site_backup"
fi
install -m 644 "$SITE_SOURCE" "$SITE_TARGET"
if ! "$CADDY_BIN" validate --config "$CADDYFILE" --adapter caddyfile >/dev/null 2>&1; then
	"$CADDY_BIN" validate --config "$CADDYFILE" --adapter caddyfile 2>&1 | tail -n 5 >&2 || true
	rollback
	exit 1
fi
if [[ -n "$site_backup" ]]; then rm -f "$site_backup"; fi
"$SYSTEMCTL" reload caddy
echo "caddy: site installed and Caddy reloaded"
