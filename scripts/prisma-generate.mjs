// `prisma generate` without the native schema engine (it cannot be downloaded on our machines).
// Generation needs no engine; the CLI only checks that the engine path exists, so point it at a
// file that does. See docs/toolchain.md.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const result = spawnSync('npx', ['prisma', 'generate'], { cwd: root, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
