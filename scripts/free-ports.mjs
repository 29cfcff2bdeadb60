// Prints N different free TCP ports on 127.0.0.1, space-separated: `node scripts/free-ports.mjs 4`.
// npm test gives them to Playwright's products (E2E_PORT, …) so a run never meets another run's
// servers on the shared machine (a fixed 4173 once made a whole browser pass run no test at all).
// With TEST_PORT_RANGE ("4403-4409") the ports come from that range. Each port is held until all
// are found, so none is given twice; they are free again when this prints.
import { createServer } from 'node:net';

const count = Number(process.argv[2] ?? 1);
const range = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORT_RANGE ?? '');

function hold(port) {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve(server));
	});
}

const held = [];
if (!range) for (let n = 0; n < count; n++) held.push(await hold(0));
else
	for (let port = Number(range[1]); port <= Number(range[2]) && held.length < count; port++) {
		try {
			held.push(await hold(port));
		} catch {
			// taken: try the next one
		}
	}
const ports = held.map((server) => server.address().port);
await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
if (ports.length < count) {
	console.error(`fewer than ${count} free ports in TEST_PORT_RANGE=${process.env.TEST_PORT_RANGE}`);
	process.exit(1);
}
console.log(ports.join(' '));
