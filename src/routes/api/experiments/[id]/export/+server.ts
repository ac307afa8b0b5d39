// GET /api/experiments/:id/export?format=json|csv[&table=runs|effects]: the report as a download.

import { answerWith } from '$lib/server/http';
import { badRequest } from '$lib/server/errors';
import { experimentView } from '$lib/server/experiments/manager';
import { reportComparisonsCsv, reportRunsCsv } from '$lib/server/experiments/store';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = ({ params, url }) =>
	answerWith(() => {
		const format = url.searchParams.get('format') ?? 'json';
		const table = url.searchParams.get('table') ?? 'runs';
		if (format !== 'json' && format !== 'csv') throw badRequest(`format is json or csv, not "${format.slice(0, 40)}"`);
		if (table !== 'runs' && table !== 'effects') throw badRequest(`table is runs or effects, not "${table.slice(0, 40)}"`);
		const { report } = experimentView(params.id);
		const name = `experiment-${params.id}${format === 'csv' ? `-${table}.csv` : '.json'}`;
		const body = format === 'json' ? JSON.stringify(report, null, 2) + '\n' : table === 'effects' ? reportComparisonsCsv(report) : reportRunsCsv(report);
		return new Response(body, {
			headers: {
				'content-type': format === 'json' ? 'application/json' : 'text/csv; charset=utf-8',
				'content-disposition': `attachment; filename="${name}"`
			}
		});
	});
