import { cn } from './utils';

/**
 * The looks of a button. `confirm` is for "Yes, do it" and success-side actions: green, never the
 * danger red; `danger` only for actions that destroy or take something away.
 */
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'confirm' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'icon';

const variants: Record<ButtonVariant, string> = {
	primary: 'border-ink bg-ink text-white hover:bg-ink/85',
	secondary: 'border-field bg-card text-ink hover:bg-paper',
	danger: 'border-bad bg-bad text-white hover:bg-bad/90',
	confirm: 'border-ok bg-ok text-white hover:bg-ok/90',
	ghost: 'border-transparent bg-transparent text-ink hover:bg-line'
};

const sizes: Record<ButtonSize, string> = {
	sm: 'min-h-8 px-2.5 text-sm',
	md: 'min-h-9 px-3.5 text-[0.95rem]',
	icon: 'size-9 p-0'
};

/** The classes of a button (also for links and bits-ui parts drawn as buttons). */
export function buttonVariants({
	variant = 'primary',
	size = 'md',
	class: className
}: { variant?: ButtonVariant; size?: ButtonSize; class?: string | null } = {}): string {
	return cn(
		// Disabled buttons change colour rather than fade, so their words stay readable.
		'inline-flex shrink-0 items-center justify-center gap-1.5 rounded-lg border font-medium whitespace-nowrap transition-colors select-none',
		'disabled:cursor-not-allowed disabled:border-line disabled:bg-line disabled:text-ink-soft aria-disabled:cursor-not-allowed',
		'[&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0',
		variants[variant],
		sizes[size],
		className
	);
}
