import { EVAL_CSV_TABLES, type EvalCsvTable } from '$lib/api/eval';
import { reportCsv, interviewsCsv } from '$lib/server/eval/csv';
import { readInterviewSet } from '$lib/server/eval/interviews';
import { evaluateRun } from '$lib/server/eval/metrics';
import { badRequest } from '$lib/server/errors';
import { answerWith } from '$lib/server/http';
import { runQueries } from '$lib/server/read/queries';
import { runDir } from '$lib/server/read/run-data';
import { queryInt } from '$lib/server/validate';
import { runsDir } from '$lib/server/run/runner';
import type { RequestHandler } from './$types';

/**
 * The run's end-to-end evaluation at ?step=N (default: the last step) -> EvalReport, computed on
 * the first request and then read from the run's evaluations folder (?refresh=1 computes it
 * again). ?format=csv&table=diffusion|relationships|attendance|interviews -> one table as CSV
 * (interviews: the set stored at ?step, default the newest).
 */
export const GET: RequestHandler = ({ params, url }) =>
	answerWith(async () => {
		const home = runQueries().home;
		runDir(runsDir(home), params.id);
		const step = queryInt(url, 'step');
		const format = url.searchParams.get('format') ?? 'json';
		const refresh = ['1', 'true'].includes(url.searchParams.get('refresh') ?? '');
		if (format === 'json') return Response.json(await evaluateRun(params.id, { step, home, refresh }));
		if (format !== 'csv') throw badRequest(`format must be json or csv, not "${format.slice(0, 40)}"`);
		const table = url.searchParams.get('table') ?? '';
		if (!(EVAL_CSV_TABLES as readonly string[]).includes(table)) throw badRequest(`table must be one of ${EVAL_CSV_TABLES.join(', ')}, not "${table.slice(0, 40)}"`);
		let body: string;
		let at: number;
		if (table === 'interviews') {
			const set = readInterviewSet(params.id, step, home);
			body = interviewsCsv(set);
			at = set.step;
		} else {
			const report = await evaluateRun(params.id, { step, home, refresh });
			body = reportCsv(table as Exclude<EvalCsvTable, 'interviews'>, report);
			at = report.step;
		}
		return new Response(body, {
			headers: {
				'content-type': 'text/csv; charset=utf-8',
				'content-disposition': `attachment; filename="${params.id}-${table}-${at}.csv"`
			}
		});
	});
