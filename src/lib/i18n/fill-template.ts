/**
 * Fills `{name}` placeholders of a translated text. A placeholder without a value stays visible,
 * so a forgotten value shows up in a test or a review instead of vanishing from the sentence.
 */
export function fillTemplate(template: string, vars: Record<string, string | number> = {}): string {
	return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
