import { sveltekit } from '@sveltejs/kit/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
	// Tailwind builds the console's CSS (src/lib/styles/console.css); see docs/development.md "Design system".
	plugins: [tailwindcss(), sveltekit()],
	server: { port: 5173 }
});
