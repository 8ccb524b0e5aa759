// `npm run lint:links`: every relative link and #anchor in the Markdown pages resolves, offline.
// Only links into this repository are checked (repository: false skips resolving GitHub URLs).
import remarkGfm from 'remark-gfm';
import remarkValidateLinks from 'remark-validate-links';

export default {
	plugins: [remarkGfm, [remarkValidateLinks, { repository: false }]],
};
