#!/usr/bin/env bash
# Checks deploy/ with the real tools: shellcheck on every script, systemd-analyze verify on the
# units, caddy validate on the site file, the site's headers/body cap/compression and its private
# access log through a real Caddy, deploy/caddy.sh's Caddyfile table, logrotate's parse of the rule,
# deploy/build.sh's npm hygiene (with stand-ins for runuser and npm) and deploy/log-tail.sh. Installs shellcheck,
# caddy, systemd and logrotate from Debian when missing. Prints PASS/FAIL per check and a summary;
# exits 0 only when everything passed. Usage: bash tests/deploy/check-deploy.sh
# Most functions below are called through check(); shellcheck cannot see that (file-wide).
# shellcheck disable=SC2317
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEPLOY="$ROOT/deploy"
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
	rm -rf "$WORK"
}
trap cleanup EXIT

passed=0
failed=0
pass() { echo "PASS  $*"; passed=$((passed + 1)); }
fail() { echo "FAIL  $*"; failed=$((failed + 1)); }
check() { # check "<description>" command...
	local what="$1"
	shift
	local out
	if out="$("$@" 2>&1)"; then pass "$what"; else fail "$what"; echo "$out" | sed 's/^/      /' | tail -n 20; fi
}

# ─── Tools ─────────────────────────────────────────────────────────────────────────────────────
need=()
command -v shellcheck >/dev/null || need+=(shellcheck)
command -v caddy >/dev/null || need+=(caddy)
command -v systemd-analyze >/dev/null || need+=(systemd)
command -v logrotate >/dev/null || need+=(logrotate)
command -v curl >/dev/null || need+=(curl)
if [[ ${#need[@]} -gt 0 ]]; then
	echo "installing from Debian: ${need[*]}"
	if ! command -v apt-get >/dev/null; then
		echo "FAIL  apt-get is not available to install: ${need[*]}"
		exit 3
	fi
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$WORK/apt.log" 2>&1 ||
		{ echo "FAIL  apt-get install ${need[*]}"; tail -n 20 "$WORK/apt.log"; exit 3; }
fi

# ─── Scripts ───────────────────────────────────────────────────────────────────────────────────
mapfile -t scripts < <(find "$DEPLOY" "$ROOT/tests/deploy" -name '*.sh' | sort)
for script in "${scripts[@]}"; do
	check "shellcheck ${script#"$ROOT"/}" shellcheck -x "$script"
	check "executable ${script#"$ROOT"/}" test -x "$script"
done

# ─── systemd units (verified as installed: paths moved into this checkout) ────────────────────
mkdir -p "$WORK/units"
for unit in "$DEPLOY"/systemd/*; do sed "s#/opt/sticker-kiosk#$ROOT#g" "$unit" >"$WORK/units/$(basename "$unit")"; done
verify_units() {
	local out
	out="$(cd "$WORK/units" && systemd-analyze verify ./*.service ./*.timer 2>&1)" || { echo "$out"; return 1; }
	# Warnings do not change the exit code; treat any output as a failure.
	[[ -z "$out" ]] || { echo "$out"; return 1; }
}
check "systemd-analyze verify deploy/systemd/*" verify_units
unit_has() { grep -qxF -- "$2" "$DEPLOY/systemd/$1" || { echo "$1 lacks: $2"; return 1; }; }
for unit in sticker-api.service sticker-bot.service; do
	for line in User=sticker Restart=always CPUWeight=50 NoNewPrivileges=yes ProtectSystem=strict ProtectHome=yes PrivateTmp=yes UMask=0027 ReadOnlyPaths=/opt/sticker-kiosk; do
		check "$unit: $line" unit_has "$unit" "$line"
	done
	check "$unit: MemoryHigh and MemoryMax" grep -q '^MemoryMax=1.6G' "$DEPLOY/systemd/$unit"
done
for line in Environment=HOST=127.0.0.1 Environment=PORT=8000 Environment=BODY_SIZE_LIMIT=16M 'ExecStart=/usr/bin/node build/index.js' TimeoutStopSec=15; do
	check "sticker-api.service: $line" unit_has sticker-api.service "$line"
done
for line in 'ExecStart=/usr/bin/node --enable-source-maps build/node/worker.js' KillSignal=SIGINT TimeoutStopSec=30; do
	check "sticker-bot.service: $line" unit_has sticker-bot.service "$line"
done
for line in 'OnCalendar=*-*-* 03:30:00 UTC' RandomizedDelaySec=5min Persistent=true; do
	check "sticker-backup.timer: $line" unit_has sticker-backup.timer "$line"
done

# ─── Caddy site: validate, then serve it for real and look at the answers ─────────────────────
PORT_SITE="${DEPLOY_CHECK_SITE_PORT:-18581}"
PORT_UP="${DEPLOY_CHECK_UPSTREAM_PORT:-4673}"
sed "s#/var/log/caddy/stickers.log#$WORK/stickers.log#" "$DEPLOY/caddy/stickers.caddy" >"$WORK/stickers.caddy"
check "caddy validate deploy/caddy/stickers.caddy (TLS site address, log path moved)" \
	caddy validate --config "$WORK/stickers.caddy" --adapter caddyfile
{
	printf '{\n\tadmin off\n\tauto_https off\n}\n'
	sed -e "s#^stickers.eventtalks.uz {#http://127.0.0.1:$PORT_SITE {#" -e "s#127.0.0.1:8000#127.0.0.1:$PORT_UP#" "$WORK/stickers.caddy"
} >"$WORK/local.caddy"
# The upstream stands in for sticker-api: a text page, and it reads whole request bodies (as the
# upload endpoint does), so the proxy's body cap is what refuses a 21 MB one.
node -e '
require("http").createServer((req, res) => {
	let size = 0;
	req.on("data", (chunk) => (size += chunk.length));
	req.on("end", () => { if (req.method !== "GET") require("fs").appendFileSync(process.argv[2], size + "\n"); res.setHeader("Server", "upstream"); res.setHeader("Content-Type", "text/html"); res.end(req.method === "GET" ? "a".repeat(20000) : String(size)); });
}).listen(Number(process.argv[1]), "127.0.0.1");
' "$PORT_UP" "$WORK/upstream-bodies" &
PIDS+=($!)
caddy run --config "$WORK/local.caddy" --adapter caddyfile >"$WORK/caddy-run.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 50); do curl -fsS -o /dev/null "http://127.0.0.1:$PORT_SITE/" 2>/dev/null && break; sleep 0.2; done
headers="$(curl -sS -D - -o /dev/null -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PORT_SITE/" 2>&1 | tr -d '\r')"
header_is() { grep -qi "^$1: $2\$" <<<"$headers" || { echo "expected '$1: $2' in:"; echo "$headers"; return 1; }; }
check "site header: HSTS one year with subdomains" header_is Strict-Transport-Security 'max-age=31536000; includeSubDomains'
check "site header: nosniff" header_is X-Content-Type-Options nosniff
check "site header: frame DENY" header_is X-Frame-Options DENY
check "site header: same-origin referrer policy" header_is Referrer-Policy same-origin
check "site header: camera for own origin only" header_is Permissions-Policy 'camera=(self), microphone=(), geolocation=()'
check "site header: COOP same-origin" header_is Cross-Origin-Opener-Policy same-origin
check "site answer: gzip for a text page" header_is Content-Encoding gzip
no_server() { ! grep -qi '^Server:' <<<"$headers" || { echo "$headers"; return 1; }; }
check "site answer: no Server header (upstream's removed too)" no_server
head -c $((21 * 1024 * 1024)) /dev/zero >"$WORK/big.bin"
body_cap() {
	local small big
	head -c $((1024 * 1024)) /dev/zero >"$WORK/small.bin"
	small="$(curl -s -o /dev/null -w '%{http_code}' -H 'Expect:' --data-binary @"$WORK/small.bin" "http://127.0.0.1:$PORT_SITE/upload")"
	[[ "$small" == 200 ]] || { echo "a 1 MB body got HTTP $small, expected 200"; return 1; }
	big="$(curl -s -o /dev/null -w '%{http_code}' -H 'Expect:' --data-binary @"$WORK/big.bin" "http://127.0.0.1:$PORT_SITE/upload")"
	# Caddy 2.6 (Debian) answers 502 when the cap cuts a proxied body; later releases answer 413.
	[[ "$big" == 413 || "$big" == 502 ]] || { echo "a 21 MB body got HTTP $big, expected 413 (or 502 from Caddy 2.6)"; return 1; }
	# Whatever the code, the upstream must never have received a whole body above 20 MB.
	awk '$1 > 20 * 1024 * 1024 { bad = 1 } END { exit bad }' "$WORK/upstream-bodies" || { echo "upstream received a body above 20 MB"; return 1; }
	grep -qx 1048576 "$WORK/upstream-bodies" || { echo "upstream did not receive the 1 MB body"; return 1; }
}
check "site: request bodies above 20 MB are cut off before the app (1 MB passes)" body_cap
check "site: access log written to the configured file" test -s "$WORK/stickers.log"
curl -s -o /dev/null "http://127.0.0.1:$PORT_SITE/console/setup?token=SETUP-TOKEN-SEEN-BY-CADDY&x=1"
access_log_private() {
	local log="$WORK/stickers.log"
	if grep -q '"remote_ip":"127.0.0.1"' "$log"; then echo "a full visitor address in the access log:"; grep -m1 remote_ip "$log"; return 1; fi
	grep -q '"remote_ip":"127.0.0.0"' "$log" || { echo "no masked remote_ip in:"; head -n 2 "$log"; return 1; }
	if grep -q 'SETUP-TOKEN-SEEN-BY-CADDY' "$log"; then echo "a one-time token in the access log"; return 1; fi
	grep -q 'token=REDACTED&x=1' "$log" || { echo "the setup request is not in the log"; return 1; }
}
check "finding 13: access log masks visitor addresses (/24, /48) and cuts one-time tokens from URLs" access_log_private
check "finding 13: rolled access logs are deleted after 7 days" grep -qE '^[[:space:]]*roll_keep_for 7d$' "$DEPLOY/caddy/stickers.caddy"

# ─── deploy/caddy.sh: each kind of main Caddyfile and what the script does with it ─────────────
sed "s#/var/log/caddy/stickers.log#$WORK/caddysh.log#" "$DEPLOY/caddy/stickers.caddy" >"$WORK/site-source.caddy"
cat >"$WORK/fake-systemctl" <<FAKE
#!/usr/bin/env bash
echo "\$*" >>"$WORK/systemctl.calls"
FAKE
chmod +x "$WORK/fake-systemctl"
caddy_sh() { CADDY_DIR="$1" SYSTEMCTL="$WORK/fake-systemctl" SITE_SOURCE="${2:-$WORK/site-source.caddy}" bash "$DEPLOY/caddy.sh"; }
reloads() {
	local n
	n="$(grep -c 'reload caddy' "$WORK/systemctl.calls" 2>/dev/null)"
	echo "${n:-0}"
}
scenario_import_present() {
	local dir="$WORK/c1"
	mkdir -p "$dir/sites"
	printf 'import %s/sites/*.caddy\n\nneighbour.example.com {\n\trespond "hi"\n}\n' "$dir" >"$dir/Caddyfile"
	cp "$WORK/site-source.caddy" "$dir/sites/stickers.caddy"
	local before
	before="$(sha256sum "$dir/Caddyfile")"
	caddy_sh "$dir" >/dev/null || return 1
	[[ "$(sha256sum "$dir/Caddyfile")" == "$before" ]] || { echo "Caddyfile changed"; return 1; }
	[[ "$(reloads)" == 0 ]] || { echo "reloaded although nothing changed"; return 1; }
}
scenario_stock_file() {
	local dir="$WORK/c2"
	mkdir -p "$dir"
	printf '# The Caddyfile is an easy way to configure your Caddy web server.\n:80 {\n\troot * /usr/share/caddy\n\tfile_server\n}\n' >"$dir/Caddyfile"
	caddy_sh "$dir" >/dev/null || return 1
	grep -qx "import $dir/sites/\*.caddy" "$dir/Caddyfile" || { echo "no import line"; return 1; }
	ls "$dir"/Caddyfile.bak-* >/dev/null || { echo "no backup of the stock file"; return 1; }
	cmp -s "$WORK/site-source.caddy" "$dir/sites/stickers.caddy" && [[ "$(reloads)" == 1 ]]
}
scenario_old_single_site() {
	local dir="$WORK/c3"
	mkdir -p "$dir"
	printf 'stickers.eventtalks.uz {\n\treverse_proxy 127.0.0.1:8000\n}\n' >"$dir/Caddyfile"
	caddy_sh "$dir" >/dev/null || return 1
	grep -qx "import $dir/sites/\*.caddy" "$dir/Caddyfile" && [[ "$(reloads)" == 2 ]]
}
scenario_neighbour_without_import() {
	local dir="$WORK/c4"
	mkdir -p "$dir"
	printf 'neighbour.example.com {\n\trespond "hi"\n}\n' >"$dir/Caddyfile"
	local before
	before="$(sha256sum "$dir/Caddyfile")"
	if caddy_sh "$dir" >"$WORK/c4.out" 2>&1; then echo "succeeded on a neighbour's Caddyfile"; return 1; fi
	grep -q 'add this line to it by hand' "$WORK/c4.out" || { cat "$WORK/c4.out"; return 1; }
	[[ "$(sha256sum "$dir/Caddyfile")" == "$before" ]] && [[ ! -e "$dir/sites/stickers.caddy" ]] && [[ "$(reloads)" == 2 ]]
}
scenario_invalid_site_rolls_back() {
	local dir="$WORK/c5"
	mkdir -p "$dir/sites"
	printf 'import %s/sites/*.caddy\n' "$dir" >"$dir/Caddyfile"
	cp "$WORK/site-source.caddy" "$dir/sites/stickers.caddy"
	sed 's/encode zstd gzip/encode zstd gzip nonsense_encoder/' "$WORK/site-source.caddy" >"$WORK/broken.caddy"
	if caddy_sh "$dir" "$WORK/broken.caddy" >/dev/null 2>&1; then echo "accepted an invalid site file"; return 1; fi
	cmp -s "$WORK/site-source.caddy" "$dir/sites/stickers.caddy" || { echo "site file not rolled back"; return 1; }
	[[ "$(reloads)" == 2 ]] || { echo "reloaded after a failed validation"; return 1; }
}
check "caddy.sh: Caddyfile with the import line is not touched, unchanged site not reloaded" scenario_import_present
check "caddy.sh: stock Caddyfile backed up and replaced with the import line, site installed, reload" scenario_stock_file
check "caddy.sh: this project's old single-site Caddyfile migrated to the import line" scenario_old_single_site
check "caddy.sh: a neighbour's Caddyfile without the import line is an error, nothing changed" scenario_neighbour_without_import
check "caddy.sh: a site file that fails validation is rolled back and Caddy not reloaded" scenario_invalid_site_rolls_back

# ─── logrotate rule ────────────────────────────────────────────────────────────────────────────
mkdir -p "$WORK/logs"
echo line >"$WORK/logs/web.log"
sed -e "s#/opt/sticker-kiosk/logs#$WORK/logs#" -e 's/su sticker sticker/su root root/' "$DEPLOY/logrotate/sticker-kiosk" >"$WORK/logrotate.conf"
check "logrotate parses deploy/logrotate/sticker-kiosk" logrotate -d -s "$WORK/logrotate.state" "$WORK/logrotate.conf"
for word in daily 'rotate 14' 'maxage 14' compress copytruncate; do
	check "logrotate rule: $word" grep -q "^[[:space:]]*$word\$" "$DEPLOY/logrotate/sticker-kiosk"
done

# ─── update.sh and setup.sh: the steps the runbook promises ────────────────────────────────────
steps_in_order() { # file pattern...
	local file="$1" last=0 line
	shift
	for pattern in "$@"; do
		line="$(grep -n -m1 -- "$pattern" "$file" | cut -d: -f1)"
		[[ -n "$line" && "$line" -gt "$last" ]] || { echo "'$pattern' missing or out of order in $file"; return 1; }
		last="$line"
	done
}
# The patterns are literal text of the scripts (shellcheck: no expansion meant).
# shellcheck disable=SC2016
check "update.sh: build.sh → confirm (--yes) → migrate → restart web → worker → /health ≤ 15 s → log-tail.sh" \
	steps_in_order "$DEPLOY/update.sh" 'bash "$HERE/build.sh"' 'read -r -p' 'src/lib/server/db/migrate-cli.ts' 'restart sticker-api' 'restart sticker-bot' 'seq 1 15' 'log-tail.sh'
# shellcheck disable=SC2016
check "setup.sh: users, directories, ufw 22/80/443, fail2ban, swap, units, logrotate, timer, caddy.sh" \
	steps_in_order "$DEPLOY/setup.sh" 'useradd --system' 'useradd --system --user-group --home-dir "$DEPLOY_HOME"' 'install -d -o root -g "$DEPLOY_USER" -m 1775' 'ufw default deny incoming' 'for port in 22 80 443' 'jail.d/sticker-sshd.local' 'swap.sh' '/etc/systemd/system/' 'logrotate.d' 'sticker-backup.timer' 'caddy.sh'

# ─── npm hygiene (finding 6): build.sh with stand-ins that record who runs what ───────────────
B="$WORK/build"
mkdir -p "$B/app/deploy" "$B/bin"
cp "$DEPLOY/build.sh" "$B/app/deploy/"
cp "$ROOT/package.json" "$B/app/"
cat >"$B/bin/runuser" <<FAKE
#!/usr/bin/env bash
# Records the user, then runs the command as the caller (the test cannot switch users).
[[ "\$1" == -u && "\$3" == -- ]] || { echo "unexpected: runuser \$*" >&2; exit 2; }
echo "runuser \$2 \${*:4}" >>"$B/calls"
shift 3
exec "\$@"
FAKE
cat >"$B/bin/npm" <<FAKE
#!/usr/bin/env bash
echo "npm \$* | HOME=\$HOME | cache=\${npm_config_cache:-} | TMPDIR=\${TMPDIR:-} | bot token=\${TELEGRAM_BOT_TOKEN:-}" >>"$B/calls"
FAKE
cat >"$B/bin/id" <<'FAKE'
#!/usr/bin/env bash
# Plays root for build.sh's own check; any other question goes to the real id.
if [[ "$*" == "-u" ]]; then echo 0; else exec /usr/bin/id "$@"; fi
FAKE
chmod +x "$B/bin/"*
me="$(id -un)"
run_build() {
	PATH="$B/bin:$PATH" APP_DIR="$B/app" DEPLOY_USER="$me" DEPLOY_HOME="$B/home" RUNUSER="$B/bin/runuser" \
		TELEGRAM_BOT_TOKEN=123456:planted-in-roots-environment HOME=/tmp bash "$B/app/deploy/build.sh" >"$B/out" 2>&1 ||
		{ cat "$B/out"; return 1; }
}
npm_calls() { grep '^npm ' "$B/calls" | sed 's/ |.*//'; }
build_order() {
	local allowed expected
	allowed="$(node -p "Object.entries(require('$ROOT/package.json').allowScripts).filter(([, ok]) => ok === true).map(([n]) => n).join(' ')")"
	expected="$(printf 'npm ci --ignore-scripts --no-audit --no-fund\nnpm rebuild %s\nnpm run prepare\nnpm run db:generate\nnpm run build' "$allowed")"
	[[ "$(npm_calls)" == "$expected" ]] || { echo "npm calls:"; npm_calls; echo "expected:"; echo "$expected"; return 1; }
}
build_as_deploy_user() {
	# Every npm call comes right after a runuser -u <deploy user> that runs it.
	local prev="" line bad=0
	while IFS= read -r line; do
		if [[ "$line" == npm\ * && "$prev" != "runuser $me env -i "*" npm "* ]]; then echo "npm not run through runuser -u $me: $line (before it: $prev)"; bad=1; fi
		prev="$line"
	done <"$B/calls"
	[[ "$bad" -eq 0 && -n "$(npm_calls)" ]]
}
build_private_home() {
	local want="| HOME=$B/home | cache=$B/home/npm-cache | TMPDIR=$B/home/tmp | bot token=" bad
	bad="$(grep '^npm ' "$B/calls" | while IFS= read -r line; do [[ "$line" == *" $want" ]] || echo "$line"; done)"
	[[ -z "$bad" ]] || { echo "npm ran with another home, cache, temp dir or root's environment:"; echo "$bad"; return 1; }
	[[ "$(stat -c '%a %U' "$B/home")" == "700 $me" ]] || { echo "npm home: $(stat -c '%a %U' "$B/home")"; return 1; }
	[[ "$(stat -c '%a' "$B/app")" == 1775 ]] || { echo "application directory: mode $(stat -c '%a' "$B/app"), expected 1775 (sticky)"; return 1; }
}
no_npm_elsewhere() {
	# No other deploy script runs npm itself (as root) or gives anything HOME=/tmp.
	local bad
	bad="$(grep -nE '(^|[[:space:];&|(])npm([[:space:]]|$)' "$DEPLOY"/*.sh | grep -vE '^[^:]+:[0-9]+:[[:space:]]*#' | grep -vE '(echo|say) "' | grep -v 'as_deploy npm ' || true)"
	[[ -z "$bad" ]] || { echo "npm outside build.sh's as_deploy:"; echo "$bad"; return 1; }
	if grep -n 'HOME=/tmp' "$DEPLOY"/*.sh; then return 1; fi
}
check "finding 6: build.sh runs" run_build
check "finding 6: npm ci --ignore-scripts, then npm rebuild of exactly the packages allowScripts allows, then prepare, db:generate and build" build_order
check "finding 6: every npm call runs as the deploy user (runuser -u), none as root" build_as_deploy_user
check "finding 6: npm gets a private home, cache and temp dir (mode 700, the deploy user's) and an empty environment; the code directory is sticky" build_private_home
check "finding 6: no deploy script runs npm outside build.sh, none sets HOME=/tmp" no_npm_elsewhere

# ─── update.sh's recent log lines (finding 8) ─────────────────────────────────────────────────
cat >"$WORK/logs/old-web.log" <<'LOG'
First kiosk registered: kiosk-1
  kiosk key: kk_SECRETKIOSKKEY123
{"level":40,"msg":"console setup: open https://s.example/console/setup?token=SECRETSETUPTOKEN to create the owner","setupLink":"https://s.example/console/setup?token=SECRETSETUPTOKEN"}
{"level":40,"err":{"message":"request to https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/getMe failed"}}
LOG
log_tail_cuts_secrets() {
	local out
	out="$(bash "$DEPLOY/log-tail.sh" 15 "$WORK/logs/old-web.log" "$WORK/logs/missing.log")" || return 1
	if grep -E 'SECRETKIOSKKEY|SECRETSETUPTOKEN|AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw' <<<"$out"; then return 1; fi
	if ! grep -q 'kiosk key: \[redacted\]' <<<"$out" || ! grep -q 'bot\[redacted\]/getMe' <<<"$out"; then echo "$out"; return 1; fi
}
check "finding 8: update.sh's recent log lines (log-tail.sh) never show a kiosk key, setup token or bot token" log_tail_cuts_secrets

echo
if [[ "$failed" -eq 0 ]]; then
	echo "deploy checks: PASS ($passed passed, 0 failed)"
	exit 0
fi
echo "deploy checks: FAIL ($passed passed, $failed failed)"
exit 1
