-- The native asset of each QUANTUM network (CONTRACT §4): symbol Q, 18 decimals (base unit Qwei).
-- Ids are the UUIDv5 of '<networkCode>:native' in the URL namespace, computed once; a test
-- (packages/core/src/assets/native-assets.test.ts) recomputes them with the uuid package.
INSERT INTO assets (id, tenant_id, network_code, kind, symbol, name, decimals, contract_address)
VALUES
  ('92347cd6-e76a-56cb-815d-ad6076ac4439', NULL, 'QUANTUM_MAINNET', 'NATIVE', 'Q', 'Quantum', 18, NULL),
  ('011620ab-6fee-5894-b105-6c22053cf11e', NULL, 'QUANTUM_SANDBOX', 'NATIVE', 'Q', 'Quantum', 18, NULL)
ON CONFLICT (id) DO NOTHING;
