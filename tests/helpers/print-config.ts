import { getConfig } from '../../src/lib/server/config/config.ts';

// Prints the resolved DB path; the config test runs this from several working directories.
console.log(getConfig().dbPath);
