-- A deterministic, realistic seed: 200 users, 1,500 orders, 12 incidents, 4,000 error log lines.
-- Pseudo-random values come from multiplying the row number by primes, so every run is the same.

INSERT INTO users (id, email, name, plan, country, created_at)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
SELECT
  i,
  'user' || i || '@example.com',
  (CASE i % 8 WHEN 0 THEN 'Ada' WHEN 1 THEN 'Grace' WHEN 2 THEN 'Linus' WHEN 3 THEN 'Barbara'
     WHEN 4 THEN 'Ken' WHEN 5 THEN 'Margaret' WHEN 6 THEN 'Dennis' ELSE 'Radia' END)
    || ' ' || (CASE (i * 7) % 6 WHEN 0 THEN 'Lovelace' WHEN 1 THEN 'Hopper' WHEN 2 THEN 'Torvalds'
     WHEN 3 THEN 'Liskov' WHEN 4 THEN 'Thompson' ELSE 'Hamilton' END),
  CASE WHEN i % 10 = 0 THEN 'enterprise' WHEN i % 3 = 0 THEN 'pro' ELSE 'free' END,
  CASE (i * 13) % 7 WHEN 0 THEN 'DE' WHEN 1 THEN 'US' WHEN 2 THEN 'RU' WHEN 3 THEN 'BR'
    WHEN 4 THEN 'JP' WHEN 5 THEN 'IN' ELSE 'FR' END,
  strftime('%Y-%m-%dT%H:%M:%SZ', '2025-01-01', '+' || (i * 1637) || ' minutes')
FROM n;

INSERT INTO orders (id, user_id, amount_cents, currency, status, created_at)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500)
SELECT
  i,
  1 + (i * 37) % 200,
  500 + (i * 7919) % 45000,
  CASE (i * 3) % 4 WHEN 0 THEN 'EUR' WHEN 1 THEN 'USD' WHEN 2 THEN 'USD' ELSE 'GBP' END,
  CASE WHEN i % 41 = 0 THEN 'refunded' WHEN i % 29 = 0 THEN 'failed' WHEN i % 17 = 0 THEN 'pending' ELSE 'paid' END,
  strftime('%Y-%m-%dT%H:%M:%SZ', '2025-06-01', '+' || (i * 331) || ' minutes')
FROM n;

INSERT INTO incidents (id, title, service, severity, status, opened_at, resolved_at, summary) VALUES
  (1, 'Checkout latency above 2 s', 'checkout', 'sev2', 'resolved', '2026-10-03T09:12:00Z', '2026-10-03T11:40:00Z', 'Connection pool exhausted after a deploy doubled worker count.'),
  (2, 'Payment provider timeouts', 'payments', 'sev1', 'resolved', '2026-10-08T14:02:00Z', '2026-10-08T15:10:00Z', 'Upstream provider degraded; retries amplified load.'),
  (3, 'Search returns empty results', 'search', 'sev2', 'resolved', '2026-10-11T07:45:00Z', '2026-10-11T08:30:00Z', 'Index alias pointed at an empty index after a failed reindex.'),
  (4, 'Login failures for SSO users', 'auth', 'sev1', 'resolved', '2026-10-15T19:20:00Z', '2026-10-15T20:05:00Z', 'Expired SAML signing certificate.'),
  (5, 'Image uploads rejected', 'media', 'sev3', 'resolved', '2026-10-19T10:00:00Z', '2026-10-19T13:15:00Z', 'Size limit misconfigured in the new gateway.'),
  (6, 'Order emails delayed', 'notifications', 'sev3', 'resolved', '2026-10-22T06:30:00Z', '2026-10-22T09:00:00Z', 'Queue consumer stuck on a poison message.'),
  (7, 'Elevated 5xx on API', 'api', 'sev2', 'mitigated', '2026-10-27T16:40:00Z', NULL, 'Memory leak in a JSON serializer; instances recycled hourly.'),
  (8, 'Stale inventory counts', 'inventory', 'sev3', 'resolved', '2026-10-30T12:10:00Z', '2026-10-30T17:45:00Z', 'Cache invalidation skipped for bulk imports.'),
  (9, 'Checkout errors for EUR carts', 'checkout', 'sev2', 'open', '2026-11-03T08:05:00Z', NULL, 'Currency rounding throws on three-decimal prices.'),
  (10, 'Slow admin dashboard', 'admin', 'sev4', 'open', '2026-11-04T13:00:00Z', NULL, 'Unindexed report query on orders.'),
  (11, 'Webhook deliveries failing', 'notifications', 'sev2', 'open', '2026-11-05T21:30:00Z', NULL, 'TLS handshake failures to a subset of customer endpoints.'),
  (12, 'Payments double-charged', 'payments', 'sev1', 'open', '2026-11-06T10:15:00Z', NULL, 'Idempotency keys not persisted during failover.');

INSERT INTO error_logs (id, ts, service, level, message, incident_id, trace_id)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000),
svc(k, name) AS (VALUES (0, 'checkout'), (1, 'payments'), (2, 'search'), (3, 'auth'), (4, 'media'),
  (5, 'notifications'), (6, 'api'), (7, 'inventory'), (8, 'admin'))
SELECT
  i,
  strftime('%Y-%m-%dT%H:%M:%SZ', '2026-10-01', '+' || (i * 13) || ' minutes'),
  svc.name,
  CASE WHEN i % 23 = 0 THEN 'critical' WHEN i % 3 = 0 THEN 'warning' ELSE 'error' END,
  CASE (i / 9 + i * 5) % 9
    WHEN 0 THEN 'upstream timeout after 30000 ms'
    WHEN 1 THEN 'connection pool exhausted'
    WHEN 2 THEN 'invalid currency amount: rounding error'
    WHEN 3 THEN 'certificate verify failed'
    WHEN 4 THEN 'payload too large'
    WHEN 5 THEN 'deadlock detected, transaction retried'
    WHEN 6 THEN 'null reference in serializer'
    WHEN 7 THEN 'rate limit exceeded by client'
    ELSE 'unexpected EOF reading request body' END,
  CASE WHEN i % 5 = 0 THEN 1 + (i / 5) % 12 ELSE NULL END,
  printf('%08x%08x', (i * 2654435761) % 4294967296, (i * 40503) % 4294967296)
FROM n JOIN svc ON svc.k = (i * 7) % 9;
