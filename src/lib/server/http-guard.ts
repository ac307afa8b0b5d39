// What the server lets in, checked for every request before any route runs (src/hooks.server.ts):
//
// - the Host header must name this server (loopback names, the address it is bound to, or a
//   name on SIMULACRA_ALLOWED_HOSTS): anything else is a DNS-rebinding page and gets 421;
// - with SIMULACRA_ACCESS_TOKEN set, every request carries the token (a bearer header, or the
//   cookie a visit to `/?token=...` sets); without it, only this machine may connect;
// - a request that changes something (any method but GET, HEAD, OPTIONS) must come from the
//   studio's own pages (Origin, else Sec-Fetch-Site) and send JSON when it has a body: 403;
// - a body is read here, up to its limit (chunked ones included): 413 past it; JSON whose lists
//   and objects nest past their limit is refused with 400 before anything parses it.
// Refusals are the API's one JSON error shape (./http.ts: `misdirected`, `unauthorized`,
// `forbidden`, `too-large`, `invalid`); nothing is logged, so no stack trace either.

import { createHash, timingSafeEqual } from 'node:crypto';
import { ForbiddenError, InvalidError, MisdirectedError, RequestError, TooLargeError, UnauthorizedError } from './errors';
import { errorResponse, readBodyBytes } from './http';
import { formatBytes, jsonDepthOfMaps, jsonTooDeep, LIMIT_ENV, limits, type Limits } from './limits';

/** Routes whose bodies are whole maps (the editor saves and checks them). */
export const MAP_BODY_ROUTES: readonly string[] = ['/api/worlds/[world]/map', '/api/worlds/[world]/check'];

export const TOKEN_COOKIE = 'simulacra_token';
/** Shortest access token accepted. */
export const MIN_TOKEN_LENGTH = 16;

export interface GuardConfig {
	/** host names (lower case, no port, IPv6 without brackets) answered besides the loopback ones */
	hosts: ReadonlySet<string>;
	/** the access token every request must carry, when set */
	token?: string;
	limits: Limits;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `localhost`, `127.x.x.x` and `::1`: names that can only mean this machine. */
export function isLoopbackName(name: string): boolean {
	const h = name
		.toLowerCase()
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '')
		.replace(/^::ffff:(?=\d)/, '');
	return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** An address that listens on every interface. */
const isWildcard = (h: string) => h === '0.0.0.0' || h === '::' || h === '[::]' || h === '';

/** The host name of a Host header value (`name:port`, `[v6]:port`), lower case, or undefined. */
export function hostName(header: string | null | undefined): string | undefined {
	if (!header) return undefined;
	const h = header.trim().toLowerCase();
	let name: string;
	if (h.startsWith('[')) {
		const end = h.indexOf(']');
		if (end < 0) return undefined;
		name = h.slice(1, end);
		const rest = h.slice(end + 1);
		if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
	} else {
		const m = /^([a-z0-9.-]+)(?::\d{1,5})?$/.exec(h);
		if (!m) return undefined;
		name = m[1];
	}
	name = name.replace(/\.$/, '');
	return name === '' ? undefined : name;
}

const listOf = (raw: string | undefined) =>
	(raw ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);

/** The configuration from the environment: HOST, SIMULACRA_ALLOWED_HOSTS, SIMULACRA_ACCESS_TOKEN and the limits. */
export function guardConfig(env: Record<string, string | undefined> = process.env): GuardConfig {
	const hosts = new Set<string>();
	for (const entry of listOf(env.SIMULACRA_ALLOWED_HOSTS)) {
		const name = hostName(entry) ?? hostName(`[${entry}]`);
		if (name) hosts.add(name);
	}
	const bound = env.HOST?.trim();
	if (bound && !isWildcard(bound)) {
		const name = hostName(bound) ?? hostName(`[${bound}]`);
		if (name) hosts.add(name);
	}
	const token = env.SIMULACRA_ACCESS_TOKEN?.trim();
	return { hosts, ...(token ? { token } : {}), limits: limits(env) };
}

/**
 * Why the server must not start with this environment: binding to an address other machines
 * reach (HOST not a loopback address) needs SIMULACRA_ALLOWED_HOSTS and an access token.
 * `scripts/start.js` applies the same rule before it starts the server.
 */
export function bindingProblems(env: Record<string, string | undefined> = process.env): string[] {
	const host = env.HOST?.trim();
	if (!host || isLoopbackName(host)) return [];
	const problems: string[] = [];
	if (listOf(env.SIMULACRA_ALLOWED_HOSTS).length === 0)
		problems.push(`HOST=${host} lets other machines connect: list the names they use in SIMULACRA_ALLOWED_HOSTS (comma-separated)`);
	const token = env.SIMULACRA_ACCESS_TOKEN?.trim() ?? '';
	if (token.length < MIN_TOKEN_LENGTH)
		problems.push(`HOST=${host} lets other machines connect: set SIMULACRA_ACCESS_TOKEN to a secret of at least ${MIN_TOKEN_LENGTH} characters`);
	return problems;
}

const refuse = (error: RequestError, headers: Record<string, string> = {}) => errorResponse(error, headers);

const digest = (s: string) => createHash('sha256').update(s).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

function cookieValue(header: string | null, name: string): string | undefined {
	for (const part of (header ?? '').split(';')) {
		const eq = part.indexOf('=');
		if (eq > 0 && part.slice(0, eq).trim() === name) {
			try {
				return decodeURIComponent(part.slice(eq + 1).trim());
			} catch {
				return undefined;
			}
		}
	}
	return undefined;
}

/** A media type that is JSON: application/json or any `+json` type, parameters aside. */
export function isJsonType(contentType: string | null): boolean {
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	return type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);
}

export interface GuardInput {
	request: Request;
	url: URL;
	/** the SvelteKit route id, when the path matched a route */
	routeId: string | null;
	/** the peer's address, when known */
	clientAddress?: string;
}

/**
 * Checks one request. Returns a Response for a refused request, a Request to continue with
 * (the body read and checked, or the original request), never throws.
 */
export async function guardRequest(input: GuardInput, cfg: GuardConfig): Promise<Response | Request> {
	const { request, url } = input;
	const hostHeader = request.headers.get('host') ?? url.host;
	const host = hostName(hostHeader);
	if (!host || !(isLoopbackName(host) || cfg.hosts.has(host)))
		return refuse(
			new MisdirectedError(
				`this server does not answer to the host "${hostHeader ?? ''}"; open it at its own address${cfg.hosts.size ? '' : ' (http://127.0.0.1 or http://localhost)'}, or add the name to SIMULACRA_ALLOWED_HOSTS`
			)
		);

	if (cfg.token) {
		const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim();
		const cookie = cookieValue(request.headers.get('cookie'), TOKEN_COOKIE);
		const query = url.searchParams.get('token');
		if (SAFE_METHODS.has(request.method) && query !== null && sameSecret(query, cfg.token)) {
			// a visit with ?token=: remember it in a cookie only this site's own requests carry
			const clean = new URL(url);
			clean.searchParams.delete('token');
			return new Response(null, {
				status: 303,
				headers: {
					location: clean.pathname + clean.search,
					'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(cfg.token)}; Path=/; HttpOnly; SameSite=Strict`,
					'cache-control': 'no-store'
				}
			});
		}
		const ok = [bearer, cookie].some((t) => t !== undefined && sameSecret(t, cfg.token!));
		if (!ok)
			return refuse(new UnauthorizedError('this server needs its access token: open it once with ?token=<token>, or send "Authorization: Bearer <token>"'), {
				'www-authenticate': 'Bearer'
			});
	} else if (input.clientAddress && !isLoopbackName(input.clientAddress)) {
		return refuse(new ForbiddenError('this server answers only this machine; to open it to others, set SIMULACRA_ALLOWED_HOSTS and SIMULACRA_ACCESS_TOKEN'));
	}

	if (SAFE_METHODS.has(request.method)) return request;

	// ---- requests that change something ---------------------------------------------------
	const origin = request.headers.get('origin');
	if (origin !== null) {
		let originHost: string | undefined;
		try {
			const o = new URL(origin);
			originHost = o.protocol === 'http:' || o.protocol === 'https:' ? o.host.toLowerCase() : undefined;
		} catch {
			originHost = undefined;
		}
		if (originHost === undefined || originHost !== hostHeader.toLowerCase())
			return refuse(new ForbiddenError(`refused: a ${request.method} request from ${origin === 'null' ? 'a page with no origin' : `the page origin ${origin}`}, not from this studio`));
	} else {
		const site = request.headers.get('sec-fetch-site');
		if (site !== null && site !== 'same-origin' && site !== 'none')
			return refuse(new ForbiddenError(`refused: a ${request.method} request from another site (Sec-Fetch-Site: ${site}), not from this studio`));
	}

	const length = request.headers.get('content-length');
	const hasBody = request.headers.has('transfer-encoding') || (length !== null && length.trim() !== '0');
	if (!hasBody) return request;
	if (!isJsonType(request.headers.get('content-type')))
		return refuse(
			new ForbiddenError(
				`refused: a ${request.method} request with a body must send JSON (Content-Type: application/json), not ${request.headers.get('content-type') ?? 'no content type'}`
			)
		);

	const mapBody = input.routeId !== null && MAP_BODY_ROUTES.includes(input.routeId);
	const limit = mapBody ? cfg.limits.maxMapBodyBytes : cfg.limits.maxBodyBytes;
	const tooLarge = () => new TooLargeError(`the request body is larger than the ${formatBytes(limit)} allowed (${mapBody ? LIMIT_ENV.maxMapBodyBytes : LIMIT_ENV.maxBodyBytes})`);
	if (length !== null) {
		const declared = Number(length);
		if (!Number.isSafeInteger(declared) || declared < 0) return refuse(new InvalidError('the Content-Length header is not a number of bytes'));
		if (declared > limit) return refuse(tooLarge());
	}
	let body: Uint8Array<ArrayBuffer>;
	try {
		body = await readBodyBytes(request, limit, tooLarge);
	} catch (e) {
		if (e instanceof RequestError) return refuse(e);
		throw e;
	}
	// parsing is cheap at any depth, but what the routes do with the value (JSON.stringify,
	// structuredClone, checks) recurses: a body nested 100,000 deep overflows the stack
	const deep = jsonTooDeep(body, mapBody ? jsonDepthOfMaps(cfg.limits) : cfg.limits.maxJsonDepth);
	if (deep) return refuse(new InvalidError(`the request body is refused: its ${deep.message}, at line ${deep.line}, column ${deep.column}`));
	const headers = new Headers(request.headers);
	headers.delete('transfer-encoding');
	headers.set('content-length', String(body.byteLength));
	return new Request(request.url, { method: request.method, headers, body, signal: request.signal });
}
