import { error } from '@sveltejs/kit';
import { experimentView } from '$lib/server/experiments/manager';
import { describeError } from '$lib/server/errors';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = ({ params, depends }) => {
	depends('app:experiment');
	try {
		return experimentView(params.id);
	} catch (e) {
		const { status, message } = describeError(e);
		error(status, message);
	}
};
