// What the /api/prompts/** route handlers share besides the one HTTP adapter (../http.ts): the
// limit of their bodies and the version named in a URL.

import { PromptStoreError } from './store';

/** a whole prompt set is about 60 kB; each template may be up to 64 kB */
export const PROMPTS_BODY = { limit: 2 * 1024 * 1024 };

/** A version id, prefix or label from the URL (the store answers not-found when it names nothing). */
export function refParam(value: string | undefined, what = 'version'): string {
	if (!value || !/^[a-z0-9][a-z0-9._-]{0,63}$/.test(value)) throw new PromptStoreError('invalid', `"${value ?? ''}" is not a ${what} id or label`);
	return value;
}
