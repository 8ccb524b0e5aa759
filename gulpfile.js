// Icons and codex files (*.node.json) are not TypeScript, so tsc leaves them behind; n8n loads them
// from next to the compiled node.
const { src, dest } = require('gulp');
const path = require('path');

function buildIcons() {
	return src(
		[
			'icons/**/*.{png,svg}',
			'nodes/**/*.{png,svg}',
			'nodes/**/*.node.json',
			'credentials/**/*.{png,svg}',
		],
		{ base: '.', encoding: false },
	).pipe(dest(path.resolve('dist')));
}

exports['build:icons'] = buildIcons;
