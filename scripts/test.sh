#!/usr/bin/env bash
# README command 2: every test. Installs what it needs (npm packages, Prisma clients, Chromium, PostgreSQL),
# type-checks and lints (Prettier + ESLint) side by side, builds, runs the Node-side tests (vitest) on SQLite, the integration core listed in
# tests/postgres-core.txt again on PostgreSQL, the browser tests (Playwright: every spec on SQLite, on
# two products side by side, the guest flow again on PostgreSQL + S3), and ends with one summary line over all runs:
# "tests: N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --with-browser || exit 1
# The PostgreSQL tests start a throwaway cluster of Debian's server (tests/helpers/pg-cluster.ts).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
	printf '\033[1m[setup]\033[0m installing PostgreSQL from Debian for the PostgreSQL tests\n'
	if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
	{ $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null; } \
		|| { echo "could not install PostgreSQL (apt-get install -y postgresql); the PostgreSQL tests need it" >&2; exit 1; }
fi
mkdir -p .tmp
rm -f .tmp/vitest-report.json .tmp/vitest-postgres-report.json .tmp/playwright-report.json .tmp/vitest-cpu.jsonl \
	.tmp/vitest-postgres-cpu.jsonl .tmp/vitest-handles.jsonl .tmp/vitest-postgres-handles.jsonl .tmp/failed-checks.txt

# How long each step took, listed before the summary line, with the total: the numbers
# docs/development.md ("Suite time") keeps, from every run, not just from the ones someone timed.
step_name=''
step_started=$SECONDS
timings=()
step() {
	[ -n "$step_name" ] && timings+=("$step_name: $((SECONDS - step_started)) s")
	step_name=$1
	step_started=$SECONDS
	printf '\n\033[1m[test]\033[0m %s\n' "$*"
}
status=0

# Steps that only read the sources run side by side: each is one Node process on one core, so on
# 2 cores the three take about as long as ESLint alone (docs/development.md, "Suite time"). Each
# one's output is printed whole, in order, when all are done, with its own time.
side_by_side() {
	local names=() pids=() i
	mkdir -p .tmp/steps
	for ((i = 0; $# > 0; i++)); do
		names+=("$1")
		(
			started=$SECONDS
			"$2" >".tmp/steps/$i.log" 2>&1
			echo "$((SECONDS - started)) $?" >".tmp/steps/$i.done"
		) &
		pids+=($!)
		shift 2
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}"
		local took=? code=1
		read -r took code <".tmp/steps/$i.done" || true
		printf '\n\033[1m[test]\033[0m %s (%s s, side by side)\n' "${names[$i]}" "$took"
		cat ".tmp/steps/$i.log"
		timings+=("${names[$i]} (side by side): $took s")
		# The summary names it above its closing line: a run whose tests all pass is still red.
		[ "$code" = 0 ] || { status=1; echo "${names[$i]}" >>.tmp/failed-checks.txt; }
	done
}
# Each step's time and the closing lines (scripts/test-summary.mjs), then the exit.
finish() {
	step "summary"
	printf '  %s\n' "${timings[@]}" "total: $SECONDS s"
	node scripts/test-summary.mjs || status=1
	exit $status
}
type_check() {
	npx svelte-check --tsconfig ./tsconfig.json --threshold error --output human || { echo "type check failed"; return 1; }
}
# `npm run lint` is these two one after the other.
prettier_check() {
	npx prettier --check . || { echo "Prettier's check failed: npm run format fixes the style"; return 1; }
}
eslint_check() {
	npm run --silent lint:eslint || { echo "ESLint failed (above: the file, line and rule)"; return 1; }
}

step "type check and lint, side by side"
side_by_side "type check (svelte-check)" type_check "lint: Prettier's check" prettier_check "lint: ESLint" eslint_check

step "build"
# Nothing can be tested without the build: straight to the summary, which names it.
npx vite build --logLevel error || { echo build >>.tmp/failed-checks.txt; status=1; finish; }

step "unit and integration tests on SQLite (vitest)"
TEST_CPU_REPORT=.tmp/vitest-cpu.jsonl TEST_HANDLES_REPORT=.tmp/vitest-handles.jsonl npx vitest run --reporter=default --reporter=json \
	--outputFile.json=.tmp/vitest-report.json || status=1

step "integration core on PostgreSQL (vitest, tests/postgres-core.txt)"
mapfile -t pg_core < <(grep -v -E '^[[:space:]]*(#|$)' tests/postgres-core.txt)
for file in "${pg_core[@]}"; do
	[ -f "$file" ] || { echo "tests/postgres-core.txt names $file, which does not exist"; status=1; }
done
TEST_DB_ENGINE=postgresql TEST_CPU_REPORT=.tmp/vitest-postgres-cpu.jsonl \
	TEST_HANDLES_REPORT=.tmp/vitest-postgres-handles.jsonl npx vitest run "${pg_core[@]}" \
	--reporter=default --reporter=json --outputFile.json=.tmp/vitest-postgres-report.json || status=1

step "browser tests (Playwright, Debian Chromium; projects sqlite, sqlite-kiosk and postgres-s3)"
# Free ports for the two products unless the caller chose them: a fixed port another run on the
# machine holds makes Playwright refuse to start (no browser test runs at all).
if [ -z "${E2E_PORT:-}" ]; then
	read -r E2E_PORT E2E_EMULATOR_PORT E2E_KIOSK_PORT E2E_KIOSK_EMULATOR_PORT E2E_PG_PORT E2E_PG_EMULATOR_PORT \
		< <(node scripts/free-ports.mjs 6) || exit 1
	export E2E_PORT E2E_EMULATOR_PORT E2E_KIOSK_PORT E2E_KIOSK_EMULATOR_PORT E2E_PG_PORT E2E_PG_EMULATOR_PORT
fi
PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/playwright-report.json npx playwright test --reporter=list,json || status=1

finish
