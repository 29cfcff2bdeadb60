import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../server/audit/audit-log.ts';
import { auditWords } from './audit-words.ts';

describe('auditWords', () => {
	it('gives every audited action words with no stored name in them', () => {
		for (const action of AUDIT_ACTIONS) {
			const words = auditWords(action);
			expect(words, action).not.toContain('_');
			expect(words, action).not.toBe(action);
		}
		expect(auditWords('reset_user')).toBe('guest reset');
	});

	it('shows an action it does not know yet without underscores', () => {
		expect(auditWords('future_thing')).toBe('future thing');
	});
});
