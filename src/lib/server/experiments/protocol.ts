// Messages between an experiment's parent process and its workers.

import type { ModelChoice } from '../run/models';
import type { Job } from '../../api/experiments';

export interface WorkOrder {
	job: Job;
	home: string;
	world?: string;
	steps: number;
	model: ModelChoice;
	from?: { run: string; step: number };
	promptsDir?: string;
	set: string[];
	metrics?: string[];
	endpoints: string[];
	/** continue this run instead of starting one */
	resume?: string;
}

export type ToWorker = { type: 'run'; order: WorkOrder } | { type: 'grant'; ask: number; id: number; endpoint: number } | { type: 'exit' };

export type ToParent =
	| { type: 'ready' }
	| { type: 'acquire'; ask: number }
	| { type: 'release'; id: number }
	| { type: 'started'; key: string; run: string }
	| { type: 'progress'; key: string; done: number; total: number }
	| { type: 'done'; key: string; run: string; metrics: Record<string, number>; wallMs: number; stateHash?: string }
	| { type: 'failed'; key: string; error: string };
