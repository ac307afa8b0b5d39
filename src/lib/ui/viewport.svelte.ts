// Moved to src/lib/shared/viewport.svelte.ts (shared with the editor core); this re-export keeps
// older imports working.
export * from '../shared/viewport.svelte';
