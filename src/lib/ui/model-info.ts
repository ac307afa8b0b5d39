/** How the server describes the model it talks to; shown in the header at all times. */
export interface ModelInfo {
	/** short label, e.g. "offline stand-in, not a language model" */
	label: string;
	/** true when answers come from the built-in offline stand-in */
	offline: boolean;
	/** longer description for a tooltip */
	detail?: string;
}
