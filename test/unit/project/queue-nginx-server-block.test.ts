import { readFileSync } from 'node:fs';

import {
	NGINX_SCALED_CONF,
	nginxServerBlock,
	parseAccessLine,
} from '../../../scripts/queue/balancer';

/*
 * `npm run start:queue -- --scaled` runs nginx from the server block users copy
 * (scripts/queue/nginx-scaled.conf), with only its addresses replaced: what runs is what the file says.
 */

const template = readFileSync(NGINX_SCALED_CONF, 'utf8');

test('one server line per webhook processor, main and the listening port replaced, the rest as in the file', () => {
	const block = nginxServerBlock(template, {
		listen: 18080,
		main: 15678,
		webhookProcessors: [15688, 15690, 15692],
	});
	for (const name of ['n8n_webhook_processors', 'n8n_webhook_calls']) {
		const upstream = new RegExp(`upstream ${name} \\{([^}]*)\\}`).exec(block)?.[1] ?? '';
		expect(upstream.match(/server [^;]+;/g)).toEqual([
			'server 127.0.0.1:15688 max_fails=3 fail_timeout=10s;',
			'server 127.0.0.1:15690 max_fails=3 fail_timeout=10s;',
			'server 127.0.0.1:15692 max_fails=3 fail_timeout=10s;',
		]);
	}
	expect(block).toMatch(/upstream n8n_main \{\s*server 127\.0\.0\.1:15678;/);
	// Every server block, the one refusing other hosts included, listens on loopback only.
	expect(block.match(/listen [^;]+;/g)).toEqual([
		'listen 127.0.0.1:18080 default_server;',
		'listen 127.0.0.1:18080;',
	]);
	expect(block).not.toMatch(/:5688|:5690|:5678|listen 8080/);
	// Routing and failover are the file's own, untouched.
	const unchanged = (text: string) =>
		text
			.replace(/upstream n8n_webhook_(processors|calls) \{[^}]*\}/g, '')
			.replace(/listen [^;\s]+/g, 'listen N')
			.replace(/\d+/g, 'N');
	expect(unchanged(block)).toBe(unchanged(template));
	expect(block).toContain('proxy_next_upstream error;');
});

test('a file that lost its shape is refused, not half replaced', () => {
	expect(() =>
		nginxServerBlock(template.replace('upstream n8n_main', 'upstream main'), {
			listen: 1,
			main: 2,
			webhookProcessors: [3],
		}),
	).toThrow(/no longer has/);
});

test('access log lines name the process that served the call and the caller request id', () => {
	expect(
		parseAccessLine(
			'1795628772.794 POST /webhook/abc/webhook 200 upstream=127.0.0.1:15690 request_id=e-17',
		),
	).toEqual({
		method: 'POST',
		path: '/webhook/abc/webhook',
		status: 200,
		upstream: '127.0.0.1:15690',
		requestId: 'e-17',
	});
});
