// The ids that name folders (runs, worlds): one check each, for the server (before anything
// reaches the file system) and the browser (before a request is made).

/**
 * A folder name that is never a path: a letter or digit, then letters, digits, "_", "." and
 * "-", at most 200 characters (so never ".", ".." or a hidden name).
 */
export const FOLDER_NAME = /^[A-Za-z0-9][\w.-]{0,199}$/;

export function validFolderName(name: string): boolean {
	return FOLDER_NAME.test(name);
}

/** Run ids: a run's folder name under `<data home>/runs/`. */
export function validRunId(id: string): boolean {
	return validFolderName(id);
}

/** World ids (a new world's folder name): lowercase letters, digits, "-" and "_", starting with a letter or digit. */
export const WORLD_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
