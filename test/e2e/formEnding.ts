import { setTimeout as sleep } from 'node:timers/promises';

/*
 * A person filling in the form example as n8n's own form page does it (n8n 1.85 to 2.x, a form with
 * an n8n Form ending after it): the form's POST answers `{formWaitingUrl}` at once; the page asks
 * `<formWaitingUrl>/n8n-execution-status` until the run waits at its Form Ending, then shows that
 * page, whose own script POSTs back so that the run finishes.
 */

export interface FormEndingPage {
	/** The ending page's heading: the Form Ending's Completion Title. */
	title: string;
	/** Its text: the Completion Message. */
	message: string;
}

const ENTITIES: Record<string, string> = {
	'&amp;': '&',
	'&lt;': '<',
	'&gt;': '>',
	'&quot;': '"',
	'&#x27;': "'",
	'&#39;': "'",
	'&#x3D;': '=',
	'&#x60;': '`',
};

function text(html: string): string {
	return html
		.replace(/<br\s*\/?>/gi, '\n')
		.replace(/<[^>]+>/g, '')
		.replace(/&(?:amp|lt|gt|quot|#x27|#39|#x3D|#x60);/g, (entity) => ENTITIES[entity])
		.trim();
}

/*
 * n8n's ending page (templates/form-trigger-completion) is a card `<div class='header'>` holding the
 * Completion Title as `<h1>` and the Completion Message as `<p>`; the form's own page has no such
 * card. The `<p>` differs by version: 2.x gives it `style="white-space: pre-line;"`, 1.85 and 1.123
 * a bare `<p>` (1.85 HTML-escapes the message, 1.123 and 2.x let through the HTML their sanitizer
 * allows). Its `<title>` is the form trigger's Form Title on every version, so it cannot tell the
 * two pages apart.
 */
const ENDING_CARD =
	/<div class='header'>\s*<h1>([\s\S]*?)<\/h1>\s*<p(?: style="white-space: pre-line;")?>([\s\S]*?)<\/p>/;

/** The heading and text of an ending page n8n rendered (templates/form-trigger-completion). */
export function readFormEnding(html: string): FormEndingPage {
	const card = ENDING_CARD.exec(html);
	if (!card) {
		// From <body>: the head is styles and the form's title on both pages; the body tells them apart.
		const body = Math.max(html.indexOf('<body>'), 0);
		throw new Error(`not an n8n form ending page:\n${html.slice(body, body + 2000)}`);
	}
	return { title: text(card[1]), message: text(card[2]) };
}

/** Submits `fields` (field-0, field-1, … in the form's order) and returns the page the person sees. */
export async function fillInForm(formUrl: string, fields: string[]): Promise<FormEndingPage> {
	const form = new FormData();
	fields.forEach((value, index) => form.append(`field-${index}`, value));
	const submitted = await fetch(formUrl, { method: 'POST', body: form });
	const answer = await submitted.text();
	if (submitted.status !== 200) throw new Error(`the form answered ${submitted.status}: ${answer}`);
	const { formWaitingUrl } = JSON.parse(answer) as { formWaitingUrl?: string };
	if (!formWaitingUrl) throw new Error(`the form answered without a formWaitingUrl: ${answer}`);
	const ending = new URL(formWaitingUrl);
	const status = new URL(ending);
	status.pathname += '/n8n-execution-status';
	const deadline = Date.now() + 30_000;
	for (;;) {
		const now = (await (await fetch(status)).text()).trim();
		if (now === 'form-waiting') break;
		if (['canceled', 'crashed', 'error', 'success', 'null'].includes(now) || Date.now() > deadline)
			throw new Error(`the form's run is "${now}", not waiting at its ending page`);
		await sleep(250);
	}
	const page = await fetch(ending);
	const html = await page.text();
	if (page.status !== 200) throw new Error(`the ending page answered ${page.status}: ${html}`);
	// What the page's own script does next: without it the run waits at the ending page.
	await fetch(ending, { method: 'POST' });
	return readFormEnding(html);
}
