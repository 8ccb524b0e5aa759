/*
 * Queue mode's Redis holds the job queue: whoever can talk to it can read every execution's job and
 * add or change jobs, which the workers then run with the credentials stored in n8n. Its loopback
 * port keeps other machines out, not other users or processes of this one. So the Redis the queue
 * scripts start asks every connection for a password (made at each start: Redis keeps nothing on
 * disk), which n8n's processes get through their environment; and the password is never in
 * redis-server's argv, which `ps` shows every user.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../../../scripts/n8n/real-n8n';
import { RedisServer } from '../../../scripts/queue/services';

jest.setTimeout(60_000);

let folder: string;
let redis: RedisServer | undefined;
beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'queue-redis-'));
});
afterEach(async () => {
	await redis?.stop();
	redis = undefined;
	rmSync(folder, { recursive: true, force: true });
});

/** Sends raw RESP commands on one connection and resolves with every reply line, in order. */
function ask(port: number, commands: string[][]): Promise<string[]> {
	return new Promise((resolve, reject) => {
		const socket = new Socket();
		let answered = '';
		socket.setEncoding('utf8');
		socket.on('data', (chunk: string) => {
			answered += chunk;
			const lines = answered.split('\r\n').filter((line) => /^[+\-:]/.test(line));
			if (lines.length >= commands.length) {
				socket.destroy();
				resolve(lines);
			}
		});
		socket.once('error', reject);
		socket.connect(port, '127.0.0.1', () => {
			for (const command of commands)
				socket.write(
					`*${command.length}\r\n${command.map((part) => `$${Buffer.byteLength(part)}\r\n${part}\r\n`).join('')}`,
				);
		});
	});
}

it('refuses a connection without the password and answers one with it', async () => {
	const port = await freePort();
	redis = await RedisServer.start({ port, logFile: join(folder, 'redis.log') });
	const [unasked] = await ask(port, [['SET', 'bull:jobs', 'planted']]);
	expect(unasked).toMatch(/^-NOAUTH/);
	expect(redis.password).toMatch(/^[0-9a-f]{32,}$/);
	expect(await ask(port, [['AUTH', redis.password], ['PING']])).toEqual(['+OK', '+PONG']);
});

it("keeps the password out of redis-server's argv, which every user of the machine can list", async () => {
	redis = await RedisServer.start({ port: await freePort(), logFile: join(folder, 'redis.log') });
	const argv = readFileSync(`/proc/${redis.pid}/cmdline`, 'utf8');
	expect(argv).toContain('redis-server');
	expect(argv).not.toContain(redis.password);
});

it('two starts make two passwords', async () => {
	redis = await RedisServer.start({ port: await freePort(), logFile: join(folder, 'redis.log') });
	const first = redis.password;
	await redis.stop();
	redis = await RedisServer.start({ port: await freePort(), logFile: join(folder, 'redis.log') });
	expect(redis.password).not.toBe(first);
});
