// The environment graph's own keyboard settings for @xyflow/svelte. The graph deletes nothing by
// key (the editor's Delete command deletes the selected zone), so its delete key is off: an empty
// list, not null, which the library would pass on as an empty key and warn about on every key
// press ("[svelte-put/shortcut] Trigger should have either key or code").

import type { SvelteFlowProps } from '@xyflow/svelte';

export const GRAPH_DELETE_KEY: NonNullable<SvelteFlowProps['deleteKey']> = [];
