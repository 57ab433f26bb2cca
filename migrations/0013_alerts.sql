-- Budget alerts (docs/alerts.md): thresholds per tenant and per key ({"thresholds": [50, 80, 100]}, riding in
-- the key record like budgets), and the tenant's webhook URL (read only by the alert consumer). Existing rows
-- read back as no thresholds ('{}') and no webhook (NULL). Fired alerts live in each tenant's Limiter object.
ALTER TABLE tenants ADD COLUMN alerts TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(alerts));
ALTER TABLE tenants ADD COLUMN alert_webhook TEXT;
ALTER TABLE api_keys ADD COLUMN alerts TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(alerts));
