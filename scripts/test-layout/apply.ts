/*
 * Issue 38 in one step: the unit and engine tests move to a folder per resource or shared mechanism
 * (test/unit/<area>/, test/engine/<area>/), named for what they guard, and their helpers to
 * test/helpers/. The moves are the lines of map.tsv (old path, a tab, new path, from the
 * repository root); everything that names a moved file follows it:
 *   - relative module specifiers (import, export … from, require, import(), jest.mock and its kin)
 *     in every .ts file of test/, scripts/ and sandbox/, read with the TypeScript compiler, both
 *     those that point at a moved file and those written from one;
 *   - paths built from __dirname (`join(__dirname, '..', 'fixtures')`, `resolve(__dirname, '../..')`)
 *     in those files, recomputed from the file's new folder;
 *   - paths written from the repository root (`test/engine/harness.ts`, `<rootDir>/test/x.ts`, a jest
 *     path pattern such as `test/unit/sandbox`) in every text file: configs, scripts, docs, comments
 *     (CHANGELOG.md keeps its history as written);
 *   - a renamed file's bare name (`list-pages-guard.test.ts` in a comment) where no other file has it.
 * Then CONTRIBUTING.md gets its "Test layout" section (CONTRIBUTING-section.md here) and prettier
 * formats what was touched.
 *
 *   node --require ts-node/register/transpile-only scripts/test-layout/apply.ts           plan only
 *   node --require ts-node/register/transpile-only scripts/test-layout/apply.ts --apply   do it
 *
 * It refuses to run twice (a new path already there, or an old one gone), on a work tree with
 * changes, and while a test file is neither in the map nor in an area folder (it lists them, so that
 * a line can be added; --force moves the rest anyway). What it cannot judge it lists at the end.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';

import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const HERE = 'scripts/test-layout';
const MAP_FILE = `${HERE}/map.tsv`;
const SECTION_FILE = `${HERE}/CONTRIBUTING-section.md`;
const CODE_FOLDERS = ['test/', 'scripts/', 'sandbox/'];
const TEXT_EXTENSIONS = /\.(ts|js|mjs|cjs|md|sh|json|ya?ml|conf|txt)$/;
/** History is kept as it was written; this folder holds the map itself. */
const NOT_REWRITTEN = (path: string) =>
	path === 'CHANGELOG.md' || path === 'package-lock.json' || path.startsWith(`${HERE}/`);

const args = new Set(process.argv.slice(2));
const APPLY = args.has('--apply');
const FORCE = args.has('--force');

const git = (...gitArgs: string[]) =>
	execFileSync('git', gitArgs, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

function readMap(): Map<string, string> {
	const moves = new Map<string, string>();
	const targets = new Set<string>();
	read(MAP_FILE)
		.split('\n')
		.forEach((line, index) => {
			if (line.trim() === '' || line.startsWith('#')) return;
			const fields = line.split('\t');
			if (fields.length !== 2 || fields.some((field) => field.trim() !== field || field === '')) {
				throw new Error(`${MAP_FILE}:${index + 1}: expected "old path<TAB>new path", got ${line}`);
			}
			const [from, to] = fields;
			if (moves.has(from)) throw new Error(`${MAP_FILE}:${index + 1}: ${from} is moved twice`);
			if (targets.has(to)) throw new Error(`${MAP_FILE}:${index + 1}: two files move to ${to}`);
			moves.set(from, to);
			targets.add(to);
		});
	return moves;
}

const moves = readMap();
const newPathOf = (path: string) => moves.get(path) ?? path;

/** Every file of the work tree git knows or would add (tracked, and untracked but not ignored). */
const files = git('ls-files', '--cached', '--others', '--exclude-standard')
	.split('\n')
	.filter((path) => path !== '' && existsSync(join(ROOT, path)));
const fileSet = new Set(files);

/** The area folders the map lays out: test/unit/<area>/ and test/engine/<area>/. */
const areaFolders = new Set(
	[...moves.values()]
		.map((to) => /^test\/(unit|engine)\/[^/]+\//.exec(to)?.[0])
		.filter((folder): folder is string => folder !== undefined),
);

// ---------------------------------------------------------------------------------------------
// Whether it can run: not twice, on a clean tree, with every test file placed.

const problems: string[] = [];
const missing = [...moves.keys()].filter((from) => !fileSet.has(from));
const present = [...moves.values()].filter((to) => existsSync(join(ROOT, to)));
if (missing.length === moves.size && present.length > 0) {
	console.error('Already applied: no file of the map is at its old path, and the new ones exist.');
	process.exit(1);
}
if (missing.length > 0) {
	problems.push(
		`In the map but not in the tree (renamed or deleted by another branch? fix its line):\n  ${missing.join('\n  ')}`,
	);
}
if (present.length > 0) {
	problems.push(
		`Already at a new path (applied before, or a name taken):\n  ${present.join('\n  ')}`,
	);
}

const unplaced = files.filter(
	(path) =>
		/^test\/(unit|engine)\/.*\.ts$/.test(path) &&
		!moves.has(path) &&
		![...areaFolders].some(
			(folder) => path.startsWith(folder) && !path.slice(folder.length).includes('/'),
		),
);
// Helpers at test/'s root go to test/helpers/ too.
unplaced.push(...files.filter((path) => /^test\/[^/]+\.ts$/.test(path) && !moves.has(path)));

if (APPLY && git('status', '--porcelain').trim() !== '') {
	problems.push(
		'The work tree has changes: commit or stash them, so that this step is one change.',
	);
}

// ---------------------------------------------------------------------------------------------
// Module specifiers and __dirname paths, read with the TypeScript compiler.

interface Edit {
	start: number;
	end: number;
	text: string;
}
const handChecks: string[] = [];

const JEST_MODULE_CALLS = new Set([
	'mock',
	'doMock',
	'unmock',
	'dontMock',
	'requireActual',
	'requireMock',
	'setMock',
	'createMockFromModule',
]);
const PATH_CALLS = new Set(['join', 'resolve']);

/** The file a relative specifier names from `from`, and the part of its path the specifier left out. */
function resolveSpecifier(
	from: string,
	specifier: string,
): { target: string; suffix: string } | undefined {
	const base = posix.normalize(posix.join(posix.dirname(from), specifier));
	for (const suffix of ['', '.ts', '.js', '.json', '.d.ts', '/index.ts', '/index.js']) {
		if (fileSet.has(base + suffix)) return { target: base + suffix, suffix };
	}
	return undefined;
}

const relativeSpecifier = (fromFile: string, toPath: string) => {
	const path = posix.relative(posix.dirname(fromFile), toPath);
	return path.startsWith('.') ? path : `./${path}`;
};

function isStringLike(node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral {
	return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
}

function moduleSpecifierOf(node: ts.Node): ts.Expression | undefined {
	if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return node.moduleSpecifier;
	if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
		return node.moduleReference.expression;
	}
	if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
		return node.argument.literal;
	if (ts.isCallExpression(node) && node.arguments.length > 0) {
		const callee = node.expression;
		const isModuleCall =
			callee.kind === ts.SyntaxKind.ImportKeyword ||
			(ts.isIdentifier(callee) && callee.text === 'require') ||
			(ts.isPropertyAccessExpression(callee) &&
				ts.isIdentifier(callee.expression) &&
				((callee.expression.text === 'jest' && JEST_MODULE_CALLS.has(callee.name.text)) ||
					(callee.expression.text === 'require' && callee.name.text === 'resolve')));
		if (isModuleCall) return node.arguments[0];
	}
	return undefined;
}

function quoted(like: ts.Node, source: ts.SourceFile, text: string) {
	const quote = source.text[like.getStart(source)];
	return `${quote}${text}${quote}`;
}

/** The edits that keep one file's specifiers and __dirname paths pointing where they pointed. */
function codeEdits(path: string, text: string): Edit[] {
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
	const edits: Edit[] = [];
	const newPath = newPathOf(path);
	const moving = newPath !== path;
	const handled = new Set<ts.Node>();

	const visit = (node: ts.Node) => {
		const specifier = moduleSpecifierOf(node);
		if (specifier && isStringLike(specifier) && specifier.text.startsWith('.')) {
			const found = resolveSpecifier(path, specifier.text);
			if (!found) {
				handChecks.push(`${path}: '${specifier.text}' resolves to no file; left as written`);
			} else {
				const wanted = newPathOf(found.target);
				let next = relativeSpecifier(newPath, wanted);
				if (found.suffix !== '') next = next.slice(0, -found.suffix.length);
				if (next !== specifier.text) {
					edits.push({
						start: specifier.getStart(source),
						end: specifier.getEnd(),
						text: quoted(specifier, source, next),
					});
				}
			}
		}
		// join(__dirname, '..', 'x'), path.resolve(__dirname, '../..'): the literal segments after it.
		if (ts.isCallExpression(node)) {
			const callee = node.expression;
			const name = ts.isIdentifier(callee)
				? callee.text
				: ts.isPropertyAccessExpression(callee)
					? callee.name.text
					: '';
			const [first, ...rest] = node.arguments;
			if (PATH_CALLS.has(name) && first && ts.isIdentifier(first) && first.text === '__dirname') {
				handled.add(first);
				const literals: (ts.StringLiteral | ts.NoSubstitutionTemplateLiteral)[] = [];
				for (const argument of rest) {
					if (!isStringLike(argument)) break;
					literals.push(argument);
				}
				if (literals.length === 0) {
					if (moving)
						handChecks.push(`${path}: ${node.getText(source)} (no literal path to follow)`);
				} else {
					const target = posix.normalize(
						posix.join(posix.dirname(path), ...literals.map((literal) => literal.text)),
					);
					const wanted = newPathOf(target);
					if (moving || wanted !== target) {
						const relativePath = posix.relative(posix.dirname(newPath), wanted) || '.';
						const segments = literals.length === 1 ? [relativePath] : relativePath.split('/');
						const before = literals.map((literal) => literal.text);
						if (segments.join('/') !== before.join('/') || segments.length !== before.length) {
							edits.push({
								start: literals[0].getStart(source),
								end: literals[literals.length - 1].getEnd(),
								text: segments.map((segment) => quoted(literals[0], source, segment)).join(', '),
							});
						}
						if (!existsSync(join(ROOT, target))) {
							handChecks.push(
								`${path}: ${node.getText(source)} names ${target}, which is not in the tree`,
							);
						}
					}
				}
			}
		}
		// Any other use of the file's own place (createRequire(__filename), a template string).
		if (
			moving &&
			ts.isIdentifier(node) &&
			(node.text === '__dirname' || node.text === '__filename') &&
			!handled.has(node)
		) {
			const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
			handChecks.push(
				`${path}:${line}: ${node.parent.getText(source).slice(0, 100)} (check by hand)`,
			);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return edits;
}

function applyEdits(text: string, edits: Edit[]) {
	let result = text;
	for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
		result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
	}
	return result;
}

// ---------------------------------------------------------------------------------------------
// Paths written from the repository root, and bare names of renamed files, in any text file.

const ROOT_PATH = /(?<![A-Za-z0-9_-])test\/[A-Za-z0-9_.*/-]+/g;
const TEST_EXTENSION = /(\.property)?\.test\.ts$|\.ts$/;

function rootPathReplacement(found: string, where: string): string {
	// A sentence may end right after a path.
	const trailing = /[.]+$/.exec(found)?.[0] ?? '';
	const path = trailing ? found.slice(0, -trailing.length) : found;
	if (moves.has(path)) return moves.get(path)! + trailing;
	// A prefix or glob (`test/unit/sandbox`, `test/engine/skip-items-already-sent*.test.ts`, a jest
	// path pattern): it follows the files it names when they all went to one folder and kept the prefix.
	const glob = /^(test\/(?:unit|engine)\/)([A-Za-z0-9_.-]*)(.*)$/.exec(path);
	if (glob && !path.endsWith('/') && glob[2] !== '') {
		const [, folder, prefix, tail] = glob;
		const named = files.filter(
			(file) =>
				file.startsWith(folder) &&
				!file.slice(folder.length).includes('/') &&
				file.slice(folder.length).startsWith(prefix),
		);
		if (named.length > 0) {
			const newFolders = new Set(named.map((file) => posix.dirname(newPathOf(file))));
			const keptPrefix = named.every((file) => posix.basename(newPathOf(file)).startsWith(prefix));
			if (newFolders.size === 1 && keptPrefix && named.every((file) => moves.has(file))) {
				return `${[...newFolders][0]}/${prefix}${tail}${trailing}`;
			}
			if (named.length > 1) {
				handChecks.push(
					`${where}: "${found}" names ${named.length} files that do not move together`,
				);
			}
		}
	}
	// The same path without its extension (`test/engine/every-request-keeps-contract`).
	for (const [from, to] of moves) {
		const fromStem = from.replace(TEST_EXTENSION, '');
		if (fromStem === path && fromStem !== from) {
			return to.replace(TEST_EXTENSION, '') + trailing;
		}
	}
	return found;
}

/** Renamed files whose old bare name belongs to no other file, so a mention of it is theirs. */
const renamedBareNames = new Map<string, string>();
const ambiguousBareNames = new Set<string>();
for (const [from, to] of moves) {
	const oldName = posix.basename(from);
	const newName = posix.basename(to);
	if (oldName === newName) continue;
	if (files.some((file) => file !== from && posix.basename(file) === oldName)) {
		ambiguousBareNames.add(oldName);
	} else {
		renamedBareNames.set(oldName, newName);
	}
}
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const bareNamePattern =
	renamedBareNames.size === 0
		? undefined
		: new RegExp(
				`(?<![A-Za-z0-9_./-])(${[...renamedBareNames.keys()].map(escapeRegExp).join('|')})(?![A-Za-z0-9_-])`,
				'g',
			);
const ambiguousPattern =
	ambiguousBareNames.size === 0
		? undefined
		: new RegExp(
				`(?<![A-Za-z0-9_./-])(${[...ambiguousBareNames].map(escapeRegExp).join('|')})(?![A-Za-z0-9_-])`,
				'g',
			);
/** Old names without their extension (`adv3-send-key-as-sent`): reported, as only a person can tell. */
const stemPattern = new RegExp(
	`(?<![A-Za-z0-9_/-])(${[...moves.keys()]
		.filter((from) => posix.basename(from) !== posix.basename(moves.get(from)!))
		.map((from) => posix.basename(from).replace(TEST_EXTENSION, ''))
		.filter((stem) => /[-A-Z]/.test(stem) && stem.length > 6)
		.map(escapeRegExp)
		.join('|')})(?![A-Za-z0-9_.-])`,
	'g',
);

function textRewrite(path: string, text: string): string {
	const lines = text.split('\n');
	return lines
		.map((line, index) => {
			const where = `${path}:${index + 1}`;
			let next = line.replace(ROOT_PATH, (found) => rootPathReplacement(found, where));
			if (bareNamePattern) {
				next = next.replace(bareNamePattern, (name: string) => renamedBareNames.get(name) ?? name);
			}
			if (ambiguousPattern) {
				// A name several files have: the one beside the mentioning file, if there is one.
				next = next.replace(ambiguousPattern, (name: string) => {
					const sibling = posix.join(posix.dirname(path), name);
					if (moves.has(sibling)) return posix.basename(moves.get(sibling)!);
					if (!fileSet.has(sibling)) {
						handChecks.push(`${where}: "${name}" (renamed, and another file has that name too)`);
					}
					return name;
				});
			}
			for (const match of next.matchAll(stemPattern)) {
				handChecks.push(
					`${where}: "${match[1]}" (the old name of a renamed test, without extension)`,
				);
			}
			return next;
		})
		.join('\n');
}

// ---------------------------------------------------------------------------------------------
// The plan.

const rewritten = new Map<string, { text: string; to: string }>();
for (const path of files) {
	if (!TEXT_EXTENSIONS.test(path) || NOT_REWRITTEN(path)) {
		if (moves.has(path)) rewritten.set(path, { text: read(path), to: moves.get(path)! });
		continue;
	}
	const original = read(path);
	let text = original;
	if (path.endsWith('.ts') && CODE_FOLDERS.some((folder) => path.startsWith(folder))) {
		text = applyEdits(text, codeEdits(path, text));
	}
	text = textRewrite(path, text);
	if (text !== original || moves.has(path)) rewritten.set(path, { text, to: newPathOf(path) });
}
// The map's own check file is under scripts/test-layout/, which is not rewritten as text: its
// specifiers still follow it.
for (const [from, to] of moves) {
	if (from.startsWith(`${HERE}/`) && from.endsWith('.ts')) {
		const original = read(from);
		rewritten.set(from, { text: applyEdits(original, codeEdits(from, original)), to });
	}
}

const contributing = read('CONTRIBUTING.md');
const hasSection = /\n## Test layout\n/.test(contributing);
const nextSection = '\n## The end-to-end tests';
let contributingText = rewritten.get('CONTRIBUTING.md')?.text ?? contributing;
if (!hasSection) {
	const at = contributingText.indexOf(nextSection);
	if (at === -1) {
		handChecks.push(
			`CONTRIBUTING.md: no "${nextSection.trim()}" heading to put the Test layout section before`,
		);
	} else {
		const section = read(SECTION_FILE).trim();
		contributingText = `${contributingText.slice(0, at)}\n${section}\n${contributingText.slice(at)}`;
		rewritten.set('CONTRIBUTING.md', { text: contributingText, to: 'CONTRIBUTING.md' });
	}
}

const changedInPlace = [...rewritten].filter(([from, { to }]) => from === to);
console.log(`Moves (${moves.size}):`);
for (const [from, to] of moves) console.log(`  git mv ${from} ${to}`);
console.log(`\nFiles rewritten in place (${changedInPlace.length}):`);
for (const [path] of changedInPlace) console.log(`  ${path}`);
console.log(`\nArea folders (${areaFolders.size}):`);
for (const folder of [...areaFolders].sort()) {
	const count = [...moves.values()].filter(
		(to) => to.startsWith(folder) && to.endsWith('.test.ts'),
	).length;
	console.log(`  ${folder.padEnd(32)} ${count} test files`);
}
if (unplaced.length > 0) {
	console.log(
		`\nTest files in no area folder and not in the map (add a line to ${MAP_FILE} for each):\n  ${unplaced.join('\n  ')}`,
	);
}
const uniqueChecks = [...new Set(handChecks)];
if (uniqueChecks.length > 0) {
	console.log(`\nTo check by hand (${uniqueChecks.length}):\n  ${uniqueChecks.join('\n  ')}`);
}

if (unplaced.length > 0 && !FORCE) {
	problems.push(
		'Some test files are in no area folder (listed above); add them to the map, or pass --force.',
	);
}
if (problems.length > 0) {
	console.error(`\nNot applied:\n- ${problems.join('\n- ')}`);
	process.exit(1);
}
if (!APPLY) {
	console.log('\nPlan only: run again with --apply to move the files and rewrite the paths.');
	process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Doing it: moves first (git keeps each file's history), then the rewritten texts at the new paths.

for (const [from, to] of moves) {
	mkdirSync(join(ROOT, posix.dirname(to)), { recursive: true });
	git('mv', from, to);
}
for (const { text, to } of rewritten.values()) writeFileSync(join(ROOT, to), text);
const touched = [...new Set([...rewritten.values()].map(({ to }) => to))].filter((path) =>
	/\.(ts|js|mjs|md|json|ya?ml)$/.test(path),
);
execFileSync('npx', ['prettier', '--write', '--log-level', 'warn', ...touched], {
	cwd: ROOT,
	stdio: 'inherit',
});
// Every rewritten file, scripts/install-n8n.sh and the like included, not only those prettier formats.
git('add', '--', ...new Set([...rewritten.values()].map(({ to }) => to)));
console.log(
	`\nApplied: ${moves.size} files moved, ${changedInPlace.length} rewritten in place, all staged.` +
		'\nNext: npx tsc -p tsconfig.json --noEmit, npx eslint test scripts sandbox, npm run lint:links,' +
		' npx jest --listTests (the same count as before), then commit.',
);
