export { sha256Hex, fnv1a32 } from './hash';
export { extractJson, JsonExtractError } from './json';
export {
	checkSchema,
	coerceOutput,
	validateOutput,
	SCHEMA_TYPES,
	type Schema,
	type SchemaIssue,
	type SchemaType,
	type ValidationResult
} from './schema';
export {
	checkVars,
	failsafeFor,
	INPUT_TYPES,
	normaliseSource,
	parseTemplate,
	RenderError,
	renderTemplate,
	renderValue,
	TemplateError,
	templateVersion,
	type InputSpec,
	type InputType,
	type Sampling,
	type Template,
	type TemplateIssue
} from './template';
export { buildPromptSet, getTemplate, parsePromptSet, promptSetVersion, PromptSetError, type PromptSet } from './promptset';
