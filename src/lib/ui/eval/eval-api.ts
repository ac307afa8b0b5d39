// The browser's side of the evaluation API (shapes in $lib/api/eval): the report at a step, the
// stored interview sets, running interviews, human-written answers, and the addresses of the CSV exports. Errors throw
// the API's ApiError with the server's own message.

import type { EvalCsvTable, EvalReport, HumanAnswerSet, HumanAnswersRequest, InterviewRequest, InterviewSet, InterviewSetListing } from '$lib/api/eval';
import { defaultFetch, jsonInit, query, request, type Fetch } from '$lib/shared/api';

const base = (run: string) => `/api/runs/${encodeURIComponent(run)}/eval`;

/** The report's address: at `step` (default: the run's last), computed again with `refresh`. */
export function reportUrl(run: string, step?: number | null, refresh = false): string {
	return `${base(run)}${query({ step, refresh: refresh ? 1 : undefined })}`;
}

/** A CSV export's address (the interviews table reads the set stored at `step`). */
export function csvUrl(run: string, table: EvalCsvTable, step: number): string {
	return `${base(run)}${query({ format: 'csv', table, step })}`;
}

export function interviewsUrl(run: string, step?: number): string {
	return `${base(run)}/interviews${query({ step })}`;
}

export function humanUrl(run: string, q: Record<string, string | number | undefined> = {}): string {
	return `${base(run)}/human${query(q)}`;
}

export function createEvalApi(f: Fetch = defaultFetch) {
	return {
		report: (run: string, step?: number | null, opts: { refresh?: boolean; signal?: AbortSignal } = {}) =>
			request<EvalReport>(f, reportUrl(run, step, opts.refresh), { signal: opts.signal }),
		interviewSets: (run: string, signal?: AbortSignal) => request<InterviewSetListing[]>(f, interviewsUrl(run), { signal }),
		interviewSet: (run: string, step: number, signal?: AbortSignal) => request<InterviewSet>(f, interviewsUrl(run, step), { signal }),
		runInterviews: (run: string, body: InterviewRequest, signal?: AbortSignal) =>
			request<InterviewSet>(f, interviewsUrl(run), jsonInit('POST', body, signal)),
		/** stores human-written answers (condition human) for the set at `body.step` */
		saveHumanAnswers: (run: string, body: HumanAnswersRequest, signal?: AbortSignal) =>
			request<HumanAnswerSet>(f, humanUrl(run), jsonInit('PUT', body, signal)),
		removeHumanAnswer: (run: string, step: number, agent: string, question: string, signal?: AbortSignal) =>
			request<HumanAnswerSet>(f, humanUrl(run, { step, agent, question }), { method: 'DELETE', signal })
	};
}

export type EvalApi = ReturnType<typeof createEvalApi>;
