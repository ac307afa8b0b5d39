// Canonical JSON: object keys sorted, so equal states give equal text whatever order their
// fields were set in. Used for state hashes.

export function canonicalJson(value: unknown): string {
	if (value === null || typeof value !== 'object') {
		if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
		return value === undefined ? 'null' : JSON.stringify(value);
	}
	if (ArrayBuffer.isView(value)) {
		return canonicalJson(Array.from(value as unknown as ArrayLike<number>));
	}
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	const obj = value as Record<string, unknown>;
	const keys = Object.keys(obj)
		.filter((k) => obj[k] !== undefined)
		.sort();
	return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}
