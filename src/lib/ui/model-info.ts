/** How the server describes the model it talks to; shown in the header at all times. */
export interface ModelInfo {
	/** short label, e.g. "offline stand-in, not a language model" */
	label: string;
	/** true when answers come from the built-in offline stand-in */
	offline: boolean;
	/** longer description for a tooltip */
	detail?: string;
}

/** How a run's own model is shown: it may differ from the one the studio is configured with now. */
export function runModelInfo(model: string): ModelInfo {
	const offline = /offline/i.test(model);
	return {
		label: model,
		offline,
		detail: offline ? 'This run was made with the deterministic offline stand-in; it is not a language model.' : `This run was made with ${model}.`
	};
}
