import { rm } from 'node:fs/promises';

/** Removes the throwaway data folder the test server used. */
export default async function globalTeardown(): Promise<void> {
	const home = process.env.SIMULACRA_E2E_HOME;
	if (home) await rm(home, { recursive: true, force: true });
}
