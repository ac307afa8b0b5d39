// See https://svelte.dev/docs/kit/types#app.d.ts
import type { ErrorKind } from '$lib/api/errors';

declare global {
	namespace App {
		/** An error as SvelteKit answers it (a page's error, or an API route it could not reach): the API's error shape's first fields. */
		interface Error {
			message: string;
			kind?: ErrorKind;
		}
		// interface Locals {}
		// interface PageData {}
		// interface PageState {}
		// interface Platform {}
	}
}

export {};
