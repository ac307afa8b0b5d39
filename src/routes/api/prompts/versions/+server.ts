// Stored prompt-set versions: list them, or store a new one.
import type { SavePromptVersionRequest } from '$lib/api/prompts';
import { readObject, respond, WithStatus } from '$lib/server/prompts/http';
import { promptStore } from '$lib/server/prompts/store';
import type { RequestHandler } from './$types';

/** PromptVersionInfo[], newest first */
export const GET: RequestHandler = () => respond(() => promptStore().listVersions());

/** SavePromptVersionRequest -> PromptVersionInfo: 201 stored, 200 already stored; 400 with issues when refused */
export const POST: RequestHandler = ({ request }) =>
	respond(async () => {
		const body = (await readObject(request)) as Partial<SavePromptVersionRequest>;
		const { info, created } = promptStore().saveVersion({
			message: body.message as string,
			parent: body.parent,
			templates: body.templates as SavePromptVersionRequest['templates']
		});
		return new WithStatus(created ? 201 : 200, info);
	});
