// When a recorded model call was made, as the call lists show it. Calls made while the run was
// created (the seed memories' importance ratings, keyed `init/<agent>/<n>`) are recorded at
// step -1, before step 0: they are shown as "setup", not as a step number.

/** "setup" for the calls made at the run's creation, else the step number. */
export function callStepText(step: number): string {
	return step < 0 ? 'setup' : String(step);
}

/** The same with the word "step" ("step 12"), for a line of text. */
export function callStepLabel(step: number): string {
	return step < 0 ? 'setup (before step 0)' : `step ${step}`;
}

export const SETUP_TITLE = 'made when the run was created, before step 0 (the seed memories rated for importance)';
