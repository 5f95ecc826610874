import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Log } from '../lib/logger';
import { createMailer } from './mailer';

const quiet: Log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('mailer', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-mail-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finishes the messages it was asked for before it closes, though nobody awaited them', async () => {
    const outbox = path.join(dir, 'outbox');
    const mailer = createMailer({ smtpUrl: null, from: 'Stepwise <no-reply@stepwise.local>', outboxDir: outbox, log: quiet });
    for (const to of ['a@example.com', 'b@example.com', 'c@example.com']) void mailer.send({ to, subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' });
    await mailer.close();
    const written = fs.readdirSync(outbox).map((file) => /^To: (.+)$/m.exec(fs.readFileSync(path.join(outbox, file), 'utf8'))?.[1]);
    expect(written.sort()).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
  });

  it('settles once every message is sent or has failed', async () => {
    // The outbox cannot be made: a file stands where its folder should be.
    const blocked = path.join(dir, 'blocked');
    fs.writeFileSync(blocked, '');
    const mailer = createMailer({ smtpUrl: null, from: 'Stepwise <no-reply@stepwise.local>', outboxDir: path.join(blocked, 'outbox'), log: quiet });
    const failing = expect(mailer.send({ to: 'a@example.com', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' })).rejects.toThrow();
    await mailer.settled();
    await failing;
    await mailer.close();
  });
});
