import { mkdirSync, writeFileSync } from 'node:fs';
import { findProjectRoot } from '../config/project-root.ts';
import { renderCatalogueSheet, renderPreviewPng } from '../media/photo-outfit-art.ts';
import { catalogueSheetPath, OUTFITS, outfitPreviewDir, outfitPreviewPath } from './catalogue.ts';
import { outfitPreviewSvg } from './outfit-art.ts';

// Draws static/outfits/<id>.png and static/outfits/catalogue.jpg from outfit-art.ts. The PNGs are
// committed; run this after changing the catalogue or its art:
//   node --import tsx src/lib/server/outfits/render-previews-cli.ts
const root = findProjectRoot();
mkdirSync(outfitPreviewDir(root), { recursive: true });
const previews: Buffer[] = [];
for (const outfit of OUTFITS) {
	const png = await renderPreviewPng(outfitPreviewSvg(outfit.id));
	writeFileSync(outfitPreviewPath(root, outfit.id), png);
	previews.push(png);
	console.log(`wrote static/outfits/${outfit.id}.png (${png.length} bytes)`);
}
const sheet = await renderCatalogueSheet(previews);
writeFileSync(catalogueSheetPath(root), sheet);
console.log(`wrote static/outfits/catalogue.jpg (${sheet.length} bytes)`);
