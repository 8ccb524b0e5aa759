require('fs').rmSync(require('path').join(__dirname, '..', 'dist'), {
	recursive: true,
	force: true,
});
