import { z } from 'zod';

/** The kiosks' staff PIN as an operator sets it in the console: 4 to 12 digits (as KIOSK_STAFF_PIN). */
export const STAFF_PIN_PATTERN = /^\d{4,12}$/;

export const staffPinSchema = z.string().regex(STAFF_PIN_PATTERN, { message: 'The staff PIN is 4 to 12 digits.' });

export type StaffPin = z.infer<typeof staffPinSchema>;
