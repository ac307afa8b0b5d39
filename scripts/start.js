#!/usr/bin/env node
// `npm start`: build the app when the build is missing or older than its sources, then serve it
// on 127.0.0.1 (HOST to change) at PORT, or at the first free port from 5173. Any HOST that
// other machines reach needs SIMULACRA_ALLOWED_HOSTS and SIMULACRA_ACCESS_TOKEN, or the
// server refuses to start. An answer sent before its request's body was read (a 413, a refusal)
// closes the connection, reading and dropping the rest of the body meanwhile (closeEarlyAnswers).

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the server is built (svelte.config.js reads the same variable). */
const BUILD_DIR = process.env.SIMULACRA_BUILD_DIR || 'build';
const BUILD_ENTRY = path.resolve(ROOT, BUILD_DIR, 'index.js');

/** Everything that ends up in the server bundle; tests and docs do not. */
const SOURCES = [
	'src',
	'static',
	'prompts',
	'svelte.config.js',
	'vite.config.ts',
	'tsconfig.json',
	'package.json',
	'package-lock.json'
];

function isTestFile(name) {
	return /\.(test|spec)\.[cm]?[jt]s$/.test(name);
}

/** Newest modification time (ms) of the files below `p`, or 0 when there are none. */
export function newestMtime(p) {
	let info;
	try {
		info = statSync(p);
	} catch {
		return 0;
	}
	if (!info.isDirectory()) return isTestFile(p) ? 0 : info.mtimeMs;
	let newest = 0;
	for (const entry of readdirSync(p)) {
		newest = Math.max(newest, newestMtime(path.join(p, entry)));
	}
	return newest;
}

export function buildIsStale(root = ROOT, buildDir = BUILD_DIR) {
	const entry = path.resolve(root, buildDir, 'index.js');
	if (!existsSync(entry)) return 'no build yet';
	const built = statSync(entry).mtimeMs;
	const changed = SOURCES.find((s) => newestMtime(path.join(root, s)) > built);
	return changed ? `${changed} changed since the last build` : null;
}

/** Build output lines that would mislead here (we are about to serve the build ourselves). */
const QUIET = [/npm run preview/];

async function build(reason) {
	console.log(`Building Simulacra Studio (${reason})...`);
	const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
	if (!existsSync(vite)) {
		console.error('Vite is not installed. Run `npm install` first.');
		process.exit(1);
	}
	const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
		cwd: ROOT,
		stdio: ['ignore', 'pipe', 'inherit']
	});
	createInterface({ input: child.stdout }).on('line', (line) => {
		if (!QUIET.some((re) => re.test(line))) console.log(line);
	});
	const code = await new Promise((resolve) => child.on('close', resolve));
	if (code !== 0 || !existsSync(BUILD_ENTRY)) {
		console.error('The build failed; see the messages above.');
		process.exit(typeof code === 'number' && code !== 0 ? code : 1);
	}
}

/** `localhost`, `127.x.x.x` and `::1`: addresses only this machine reaches. */
export function isLoopback(host) {
	const h = String(host).toLowerCase().replace(/^\[|\]$/g, '');
	return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Shortest access token accepted (src/lib/server/http-guard.ts has the same rule). */
const MIN_TOKEN_LENGTH = 16;

/**
 * Why the server must not be bound to `host`: an address other machines reach needs the names
 * they use (SIMULACRA_ALLOWED_HOSTS) and an access token (SIMULACRA_ACCESS_TOKEN).
 */
export function bindingProblems(host, env = process.env) {
	if (isLoopback(host)) return [];
	const problems = [];
	const allowed = (env.SIMULACRA_ALLOWED_HOSTS ?? '').split(',').filter((s) => s.trim());
	if (!allowed.length)
		problems.push(`HOST=${host} lets other machines connect: list the names they use in SIMULACRA_ALLOWED_HOSTS (comma-separated)`);
	if ((env.SIMULACRA_ACCESS_TOKEN ?? '').trim().length < MIN_TOKEN_LENGTH)
		problems.push(`HOST=${host} lets other machines connect: set SIMULACRA_ACCESS_TOKEN to a secret of at least ${MIN_TOKEN_LENGTH} characters`);
	return problems;
}

/** What is still read (and dropped) of a body its answer did not wait for, before the connection closes. */
export const LINGER_BYTES = 1024 * 1024 * 1024;
export const LINGER_MS = 10_000;

/** A request that sends a body (declared, or chunked). */
function hasBody(req) {
	const length = req.headers['content-length'];
	return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0');
}

/**
 * An answer sent before its request's body was read (the guard's 413 for a body over its
 * limit, or any refusal of a request with a body) goes with `Connection: close`, so no client
 * sends its next request on a connection whose body the server never read, and the connection
 * then closes: the answer and a FIN at once, the rest of the body read and dropped meanwhile
 * (up to `lingerBytes`, for at most `lingerMs`), so a client that sends its whole body before it
 * reads the answer (Python's http.client, a plain socket) is not reset before it sees the
 * answer. Without this, SvelteKit's request stream pauses the socket once its queue is full:
 * such a client waited, blocked in its write, until the connection timed out.
 */
export function closeEarlyAnswers(server, { lingerBytes = LINGER_BYTES, lingerMs = LINGER_MS } = {}) {
	server.prependListener('request', (req, res) => {
		if (!hasBody(req)) return;
		const writeHead = res.writeHead;
		res.writeHead = function (...args) {
			if (!req.complete && !res.headersSent) {
				res.setHeader('connection', 'close');
				lingerThenClose(req, lingerBytes, lingerMs);
			}
			return writeHead.apply(this, args);
		};
	});
}

/**
 * Replaces how Node closes this request's connection once its answer is out (`destroySoon`,
 * which would destroy the socket with the body still arriving: a reset, which can make a client
 * lose the answer) by a lingering close.
 */
function lingerThenClose(req, lingerBytes, lingerMs) {
	const socket = req.socket;
	socket.destroySoon = () => {
		socket.end();
		if (req.readableEnded) return void socket.destroy();
		let read = 0;
		const close = () => {
			clearTimeout(timer);
			socket.destroy();
		};
		const timer = setTimeout(close, lingerMs);
		timer.unref();
		socket.once('close', () => clearTimeout(timer));
		// SvelteKit's reader of the body is done with it: drop what still comes
		req.removeAllListeners('data');
		req.on('data', (chunk) => {
			read += chunk.length;
			if (read > lingerBytes) close();
		});
		req.once('end', close);
		req.once('error', close);
		req.resume();
	};
}

function portIsFree(port, host) {
	return new Promise((resolve) => {
		const probe = net.createServer();
		probe.once('error', () => resolve(false));
		probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
	});
}

async function choosePort(host) {
	const wanted = process.env.PORT;
	if (wanted) {
		const port = Number(wanted);
		if (!Number.isInteger(port) || port < 0 || port > 65535) {
			console.error(`PORT must be a port number, got "${wanted}".`);
			process.exit(1);
		}
		return port;
	}
	for (let port = 5173; port < 5273; port++) {
		if (await portIsFree(port, host)) return port;
	}
	console.error('No free port between 5173 and 5272; set PORT to choose one.');
	process.exit(1);
}

/** The model the server is configured with, as it describes itself. */
async function modelLabel(url) {
	try {
		const res = await fetch(new URL('/api/status', url));
		if (!res.ok) return null;
		const status = await res.json();
		return typeof status?.model?.label === 'string' ? status.model.label : null;
	} catch {
		return null;
	}
}

async function main() {
	process.chdir(ROOT);
	const host = process.env.HOST || '127.0.0.1';
	const refused = bindingProblems(host);
	if (refused.length) {
		console.error(`Simulacra Studio will not start:\n${refused.map((p) => `  - ${p}`).join('\n')}`);
		process.exit(1);
	}
	const stale = buildIsStale();
	if (stale) await build(stale);

	const port = await choosePort(host);
	process.env.HOST = host;
	process.env.PORT = String(port);
	// A 140x100 map with many layers is a few MB of JSON when the editor saves it.
	process.env.BODY_SIZE_LIMIT ??= '64M';

	const { server } = await import(pathToFileURL(BUILD_ENTRY).href);
	const http = server.server;
	// Keep idle connections open longer than clients do (Node closes them after 5 s), so a
	// request sent on a connection the server is just closing does not fail with ECONNRESET.
	http.keepAliveTimeout = 65_000;
	http.headersTimeout = 66_000;
	closeEarlyAnswers(http);
	await new Promise((resolve) => {
		if (http.listening) return resolve(undefined);
		http.once('listening', resolve);
		http.once('error', (err) => {
			const why = err.code === 'EADDRINUSE' ? `port ${port} is already in use` : err.message;
			console.error(`Could not start the server on ${host}:${port}: ${why}.`);
			process.exit(1);
		});
	});

	const actualPort = http.address()?.port ?? port;
	const shownHost = host.includes(':') ? `[${host}]` : host;
	const url = `http://${shownHost}:${actualPort}`;
	const label = await modelLabel(url);
	console.log(`\nSimulacra Studio: ${url}${label ? `  (model: ${label})` : ''}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	await main();
}
