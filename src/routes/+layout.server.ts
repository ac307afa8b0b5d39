import { modelInfo } from './model-info.server';
import type { LayoutServerLoad } from './$types';

// The configured model is named on every page, so the offline stand-in never passes for a
// language model.
export const load: LayoutServerLoad = () => ({ model: modelInfo() });
