export { sha256Hex, fnv1a32 } from './hash';
export { checkTemplateSource, contractIssues, type IssueSeverity, type TemplateCheckIssue } from './check';
export { TEMPLATE_CONTRACT, type OutputShape, type TemplateContract } from './contract';
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
	frontMatterLocator,
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
