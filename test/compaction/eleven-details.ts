/** The eleven exact details of issue #33, one of each kind, as a user would write them. */
export const ELEVEN = [
  ['a path', 'The config lives at /etc/payments/db.conf on the box.', '/etc/payments/db.conf'],
  ['a port', 'The postgres on the payments host listens on port 5433.', '5433'],
  [
    'a backticked command',
    'Run `npm run migrate -- --force` before deploying.',
    'npm run migrate -- --force',
  ],
  ['an order id', 'My order id is ORD-58213, please track it.', 'ORD-58213'],
  [
    'a URL',
    'Status is at https://status.example.com/incidents/42.',
    'https://status.example.com/incidents/42',
  ],
  ['a version', 'We are on v2.14.3 in production.', 'v2.14.3'],
  ['an email', 'Write to ops@example.com about it.', 'ops@example.com'],
  ['a commit hash', 'The fix is commit 9f3c2ab on main.', '9f3c2ab'],
  ['an assignment', 'Set MAX_RETRIES=17 in the worker.', 'MAX_RETRIES=17'],
  ['a date', 'The launch is on 2026-03-14, a Saturday.', '2026-03-14'],
  ['an amount', 'The budget is $12,400 for the quarter.', '$12,400'],
] as const;
