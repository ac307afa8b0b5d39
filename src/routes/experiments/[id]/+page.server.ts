import { error } from '@sveltejs/kit';
import { experimentView } from '$lib/server/experiments/manager';
import { errorBody } from '$lib/server/http';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = ({ params, depends }) => {
	depends('app:experiment');
	try {
		return experimentView(params.id);
	} catch (e) {
		const { status, body } = errorBody(e);
		error(status, { message: body.message, kind: body.kind });
	}
};
