// Icons and codex files (*.node.json) are not TypeScript, so tsc leaves them behind; n8n loads them
// from next to the compiled node.
const { src, dest, watch } = require('gulp');
const path = require('path');

const ICONS_AND_CODEX = [
	'icons/**/*.{png,svg}',
	'nodes/**/*.{png,svg}',
	'nodes/**/*.node.json',
	'credentials/**/*.{png,svg}',
];

function buildIcons() {
	return src(ICONS_AND_CODEX, { base: '.', encoding: false }).pipe(dest(path.resolve('dist')));
}

exports['build:icons'] = buildIcons;
// npm run dev: copied again on save, as tsc --watch compiles the TypeScript beside them.
exports['watch:icons'] = () => watch(ICONS_AND_CODEX, buildIcons);
