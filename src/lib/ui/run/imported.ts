// What the debugger says of a run made from a recording of the reference implementation
// (`runs import`): where its steps come from and what they lack (run.json's `imported.missing`),
// for the run itself and for a fork of it (whose steps before the fork are the recording's).

import type { RunInfo } from '$lib/api/types';

export interface ImportedNotice {
	/** one sentence: where the steps come from and what they lack, in short */
	summary: string;
	/** each thing missing with why, as the import wrote it */
	missing: string[];
	/** the recording's folder */
	from: string;
	/** the run that holds the recording (the run itself, or the ancestor a fork began from) */
	run: string;
	/** the run is the recording itself (not a fork of it) */
	own: boolean;
	/** the recording's last step in this lineage */
	until: number;
}

/** "model calls and retrieval traces (the call inspector ...)" -> "model calls and retrieval traces" */
export function shortMissing(item: string): string {
	return item.replace(/\s*\(.*$/s, '').trim();
}

/** The notice for a run's info; null when its lineage holds no imported recording. */
export function importedNotice(info: Pick<RunInfo, 'id' | 'imported'>): ImportedNotice | null {
	const imp = info.imported;
	if (!imp) return null;
	const own = imp.run === info.id;
	const lacks = imp.missing.map(shortMissing).filter(Boolean);
	const none = lacks.length ? `: no ${lacks.join(', no ')}` : '';
	const steps = `${(0).toLocaleString('en')}–${imp.until.toLocaleString('en')}`;
	const summary = own
		? `Imported from the reference implementation (${imp.simulation}, steps ${steps})${none}.`
		: `Steps ${steps} come from a recording imported from the reference implementation (${imp.simulation})${none ? `${none} before step ${imp.until.toLocaleString('en')}` : ''}.`;
	return { summary, missing: imp.missing, from: imp.from, run: imp.run, own, until: imp.until };
}
