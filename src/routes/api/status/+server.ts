import { json } from '@sveltejs/kit';
import { modelInfo } from '../../model-info.server';
import type { RequestHandler } from './$types';

/** Health check and self-description, used by `npm start` and the test server. */
export const GET: RequestHandler = () => json({ ok: true, model: modelInfo() });
