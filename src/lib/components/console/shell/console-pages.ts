import type { Component } from 'svelte';
import type { LucideProps } from '@lucide/svelte';
import Activity from '@lucide/svelte/icons/activity';
import Users from '@lucide/svelte/icons/users';
import MessageSquare from '@lucide/svelte/icons/message-square';
import Wallet from '@lucide/svelte/icons/wallet';
import Contact from '@lucide/svelte/icons/contact';
import Megaphone from '@lucide/svelte/icons/megaphone';
import CalendarDays from '@lucide/svelte/icons/calendar-days';
import MonitorSmartphone from '@lucide/svelte/icons/monitor-smartphone';
import ScrollText from '@lucide/svelte/icons/scroll-text';
import HeartPulse from '@lucide/svelte/icons/heart-pulse';
import FileText from '@lucide/svelte/icons/file-text';
import UserCog from '@lucide/svelte/icons/user-cog';
import KeyRound from '@lucide/svelte/icons/key-round';
import Settings from '@lucide/svelte/icons/settings';

export type ConsolePage = { href: string; label: string; key: string; icon: Component<LucideProps> };

/** The console's pages in navigation order, with their single-key shortcut; Settings for owners only. */
export function consolePages(canManageOperators: boolean): ConsolePage[] {
	return [
		{ href: '/console', label: 'Live', key: 'l', icon: Activity },
		{ href: '/console/guests', label: 'Guests', key: 'g', icon: Users },
		{ href: '/console/messages', label: 'Messages', key: 'm', icon: MessageSquare },
		{ href: '/console/spend', label: 'Spend', key: 's', icon: Wallet },
		{ href: '/console/leads', label: 'Leads', key: 'd', icon: Contact },
		{ href: '/console/broadcasts', label: 'Broadcasts', key: 'b', icon: Megaphone },
		{ href: '/console/events', label: 'Events', key: 'e', icon: CalendarDays },
		{ href: '/console/kiosks', label: 'Kiosks', key: 'k', icon: MonitorSmartphone },
		{ href: '/console/audit', label: 'Audit log', key: 'a', icon: ScrollText },
		{ href: '/console/health', label: 'Health', key: 'h', icon: HeartPulse },
		{ href: '/console/logs', label: 'Logs', key: 'x', icon: FileText },
		{ href: '/console/operators', label: 'Operators', key: 'o', icon: UserCog },
		{ href: '/console/api-tokens', label: 'API tokens', key: 't', icon: KeyRound },
		...(canManageOperators ? [{ href: '/console/settings', label: 'Settings', key: 'c', icon: Settings }] : [])
	];
}
