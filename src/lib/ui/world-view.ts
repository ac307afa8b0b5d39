// Moved to src/lib/shared/world-view.ts (browser-safe code shared with the server and the editor core);
// this re-export keeps older imports working.
export * from '../shared/world-view';
