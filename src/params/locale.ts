import type { ParamMatcher } from '@sveltejs/kit';
import { LOCALES } from '$lib/i18n/locale';

/** /ru, /uz, /en — the landing in a chosen language. */
export const match: ParamMatcher = (param) => (LOCALES as readonly string[]).includes(param);
