// Type guards for values of unknown shape (parsed JSON, request bodies, YAML), shared by the
// server, the editor core and the UI.

/** A plain object (not null, not an array): a JSON object's members can be read from it. */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
