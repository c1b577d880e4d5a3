-- The analytics example database: customers, their orders, production incidents and error logs.
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  plan TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'enterprise')),
  country TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
  currency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('paid', 'refunded', 'pending', 'failed')),
  created_at TEXT NOT NULL
);
CREATE INDEX orders_user ON orders (user_id);

CREATE TABLE incidents (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  service TEXT NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('sev1', 'sev2', 'sev3', 'sev4')),
  status TEXT NOT NULL CHECK (status IN ('open', 'mitigated', 'resolved')),
  opened_at TEXT NOT NULL,
  resolved_at TEXT,
  summary TEXT NOT NULL
);

CREATE TABLE error_logs (
  id INTEGER PRIMARY KEY,
  ts TEXT NOT NULL,
  service TEXT NOT NULL,
  level TEXT NOT NULL CHECK (level IN ('warning', 'error', 'critical')),
  message TEXT NOT NULL,
  incident_id INTEGER REFERENCES incidents (id),
  trace_id TEXT NOT NULL
);
CREATE INDEX error_logs_ts ON error_logs (ts);
CREATE INDEX error_logs_service_ts ON error_logs (service, ts);
CREATE INDEX error_logs_incident ON error_logs (incident_id);
