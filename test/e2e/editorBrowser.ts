import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, type Browser, type Page } from 'playwright-core';

import { PROJECT_ROOT } from '../../scripts/n8n/install';
import type { RealN8n } from '../../scripts/n8n/real-n8n';
import { E2E_OWNER } from './setup/sharedN8n';

/* What the browser tests share: Chromium, one page on n8n's editor, and the owner signing in. */

const CHROMIUM = '/usr/bin/chromium';

/** Installs Debian Chromium when it is missing (needs root) and makes the screenshots' folder. */
export function prepareChromium(screenshots: string): void {
	execFileSync('bash', [join(PROJECT_ROOT, 'scripts', 'install-chromium.sh')], {
		stdio: 'inherit',
	});
	mkdirSync(screenshots, { recursive: true });
}

/** Headless Chromium and one page the size of a laptop's screen; `flags` add to Chromium's own. */
export async function openEditorPage(
	flags: string[] = [],
): Promise<{ browser: Browser; page: Page }> {
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--headless', '--no-sandbox', '--disable-gpu', ...flags, '--no-first-run'],
	});
	const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	// Bounds for a 2-core machine running other suites: a panel took over 30 s under a load of 25
	// (one of 39 failed so on 2026-11-28), as in the quick-start test, which has these bounds too.
	page.setDefaultTimeout(60_000);
	page.setDefaultNavigationTimeout(120_000);
	return { browser, page };
}

/** Signs the owner in to the editor as a person does: the sign-in form, then Enter. */
export async function signIn(page: Page, n8n: RealN8n): Promise<void> {
	await page.goto(`${n8n.baseUrl}/signin`);
	await page.locator('input[type="email"]').fill(E2E_OWNER.email);
	await page.locator('input[type="password"]').fill(E2E_OWNER.password);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}
